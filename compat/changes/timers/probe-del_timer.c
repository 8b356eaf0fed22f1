// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: del_timer() can be called (a function, an inline or a macro).
 *
 * Detects: del_timer(), removed in 6.15 ("treewide, timers: Rename del_timer() to timer_delete()").
 *
 * Set: del_timer
 * Defines: CDEV_COMPAT_HAVE_DEL_TIMER 1
 */
#include <linux/timer.h>

int cdev_compat_probe(struct timer_list *t);
int cdev_compat_probe(struct timer_list *t)
{
	return del_timer(t);
}
