/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat wrapper for <linux/fs.h>, first on the include path of every build through
 * compat/cdev-compat.mk (NOSTDINC_FLAGS; the backports technique).
 *
 * It includes the kernel's own <linux/fs.h>; in a force-included build
 * (CDEV_COMPAT_FORCE_INCLUDE) it then adds the unregister_chrdev() macros, at the point where
 * the driver includes the kernel's declarations, after the driver's own pr_fmt. In redirect
 * mode (CDEV_COMPAT_REDIRECT := y, module-wide) it adds the redirect macros, and all of
 * <cdev_compat.h> (the helpers, whose device-node part needs <linux/device.h> complete)
 * unless it is read from inside <linux/device.h>, whose wrapper then adds it. Otherwise it
 * adds nothing.
 */
#include_next <linux/fs.h>

#if defined(CDEV_COMPAT_FORCE_INCLUDE) || defined(CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV)
#ifndef CDEV_COMPAT_WRAP_LINUX_FS_H
#define CDEV_COMPAT_WRAP_LINUX_FS_H
#include <cdev_compat_unregister.h>
#ifdef CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV
#include <cdev_compat_redirect.h>
#if !defined(CDEV_COMPAT_WRAP_IN_DEVICE_H) && !defined(CDEV_COMPAT_H)
#include <cdev_compat.h>
#endif
#endif
#endif
#endif
