/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat wrapper for <linux/device.h>, first on the include path of every build through
 * compat/cdev-compat.mk (NOSTDINC_FLAGS).
 *
 * It includes the kernel's own <linux/device.h>; in a force-included build
 * (CDEV_COMPAT_FORCE_INCLUDE) it then defines cdev-compat's class_create() macro once more,
 * so that it wins over a backports wrapper <linux/device/class.h> that is searched before
 * compat/wrap/ and redefines class_create() after the kernel's header. Otherwise it adds
 * nothing.
 */
#include_next <linux/device.h>

/*
 * Only once cdev_compat_class.h has been read after the kernel's class.h: a header that
 * <linux/device.h> includes may include <linux/device.h> again before class.h is read.
 */
#if defined(CDEV_COMPAT_FORCE_INCLUDE) && defined(CDEV_COMPAT_CLASS_H)
#include <cdev_compat_class.h>
#endif
