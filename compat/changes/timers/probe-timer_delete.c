// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: timer_delete() can be called (a function, an inline or a macro).
 *
 * Detects: timer_delete(), which 6.2 ("timers: Rename del_timer() to timer_delete()") added and 6.15 made the only name.
 *
 * Set: timer_delete
 * Defines: CDEV_COMPAT_HAVE_TIMER_DELETE 1
 */
#include <linux/timer.h>

int cdev_compat_probe(struct timer_list *t);
int cdev_compat_probe(struct timer_list *t)
{
	return timer_delete(t);
}
