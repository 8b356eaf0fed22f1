/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat wrapper for <linux/device/class.h>, first on the include path of every build
 * through compat/cdev-compat.mk (NOSTDINC_FLAGS; the backports technique).
 *
 * It includes the kernel's own <linux/device/class.h> (or the next wrapper, e.g. a backports
 * one); in a force-included build (CDEV_COMPAT_FORCE_INCLUDE) it then defines the
 * class_create() macro that accepts both spellings (again at each inclusion: see
 * cdev_compat_class.h). Otherwise it adds nothing.
 */
#include_next <linux/device/class.h>

#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <cdev_compat_class.h>
#endif
