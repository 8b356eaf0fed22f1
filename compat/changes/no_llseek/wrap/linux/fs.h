/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/fs.h> for no_llseek (force-included builds): see ../../compat.h. */
#include_next <linux/fs.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <no_llseek/compat.h>
#endif
