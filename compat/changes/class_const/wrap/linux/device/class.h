/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/device/class.h> for the class callbacks (force-included builds): see ../../../compat.h. */
#include_next <linux/device/class.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <class_const/compat.h>
#endif
