/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/timer.h> for the timer renames (force-included builds): see ../../compat.h. */
#include_next <linux/timer.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <timers/compat.h>
#endif
