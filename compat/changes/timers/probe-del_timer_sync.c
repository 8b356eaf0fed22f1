// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: del_timer_sync() can be called (a function, an inline or a macro).
 *
 * Detects: del_timer_sync(), removed in 6.15 with del_timer().
 *
 * Set: del_timer_sync
 * Defines: CDEV_COMPAT_HAVE_DEL_TIMER_SYNC 1
 */
#include <linux/timer.h>

int cdev_compat_probe(struct timer_list *t);
int cdev_compat_probe(struct timer_list *t)
{
	return del_timer_sync(t);
}
