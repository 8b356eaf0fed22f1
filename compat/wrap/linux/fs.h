/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat wrapper for <linux/fs.h>, first on the include path in a force-included
 * build (compat/cdev-compat.mk, CDEV_COMPAT_FORCE_INCLUDE=y; the backports technique).
 *
 * It includes the kernel's own <linux/fs.h> and then the unregister_chrdev() macros, at
 * the point where the driver includes it, after the driver's own pr_fmt. In redirect mode
 * the register helpers follow.
 */
#include_next <linux/fs.h>

#ifndef CDEV_COMPAT_WRAP_LINUX_FS_H
#define CDEV_COMPAT_WRAP_LINUX_FS_H
#include <cdev_compat_unregister.h>
#ifdef CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV
#include <cdev_compat.h>
#endif
#endif
