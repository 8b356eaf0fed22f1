/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/hrtimer.h> for the timer renames (force-included builds): see ../../compat.h. */
#include_next <linux/hrtimer.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <timers/compat.h>
#endif
