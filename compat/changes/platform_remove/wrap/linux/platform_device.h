/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/platform_device.h> (force-included builds): see ../../compat.h. */
#include_next <linux/platform_device.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <platform_remove/compat.h>
#endif
