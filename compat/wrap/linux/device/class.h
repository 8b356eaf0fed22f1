/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat wrapper for <linux/device/class.h>, first on the include path of every build
 * through compat/cdev-compat.mk (NOSTDINC_FLAGS).
 *
 * It includes the kernel's own <linux/device/class.h>; in a force-included build
 * (CDEV_COMPAT_FORCE_INCLUDE) it then adds the class_create() macro that accepts both
 * spellings. Otherwise it adds nothing.
 */
#include_next <linux/device/class.h>

#ifdef CDEV_COMPAT_FORCE_INCLUDE
#ifndef CDEV_COMPAT_WRAP_LINUX_DEVICE_CLASS_H
#define CDEV_COMPAT_WRAP_LINUX_DEVICE_CLASS_H
#include <cdev_compat_class.h>
#endif
#endif
