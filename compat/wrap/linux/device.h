/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat wrapper for <linux/device.h>, first on the include path of every build through
 * compat/cdev-compat.mk (NOSTDINC_FLAGS).
 *
 * It includes the kernel's own <linux/device.h>; in a force-included build
 * (CDEV_COMPAT_FORCE_INCLUDE) it then defines cdev-compat's class_create() macro once more,
 * so that it wins over a backports wrapper <linux/device/class.h> that is searched before
 * compat/wrap/ and redefines class_create() after the kernel's header. In redirect mode it
 * then includes <cdev_compat.h>, which the <linux/fs.h> wrapper leaves to it when
 * <linux/device.h> includes <linux/fs.h> (6.12 does) before its own declarations are read.
 * Otherwise it adds nothing.
 */
#ifdef CDEV_COMPAT_WRAP_IN_DEVICE_H
/* Included again from inside the kernel's <linux/device.h>: its guard makes this a no-op. */
#include_next <linux/device.h>
#else
#define CDEV_COMPAT_WRAP_IN_DEVICE_H
#include_next <linux/device.h>
#undef CDEV_COMPAT_WRAP_IN_DEVICE_H

/*
 * Only once cdev_compat_class.h has been read after the kernel's class.h: a header that
 * <linux/device.h> includes may include <linux/device.h> again before class.h is read.
 */
#if defined(CDEV_COMPAT_FORCE_INCLUDE) && defined(CDEV_COMPAT_CLASS_H)
#include <cdev_compat_class.h>
#endif
/* Not from inside <cdev_compat.h>, which includes <linux/device.h> first. */
#if defined(CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV) && !defined(CDEV_COMPAT_H)
#include <cdev_compat.h>
#endif
#endif /* CDEV_COMPAT_WRAP_IN_DEVICE_H */
