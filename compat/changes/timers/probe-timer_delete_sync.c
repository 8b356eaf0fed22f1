// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: timer_delete_sync() can be called (a function, an inline or a macro).
 *
 * Detects: timer_delete_sync(), added with timer_delete() in 6.2 (and backported to Debian 5.10 without timer_delete()).
 *
 * Set: timer_delete_sync
 * Defines: CDEV_COMPAT_HAVE_TIMER_DELETE_SYNC 1
 */
#include <linux/timer.h>

int cdev_compat_probe(struct timer_list *t);
int cdev_compat_probe(struct timer_list *t)
{
	return timer_delete_sync(t);
}
