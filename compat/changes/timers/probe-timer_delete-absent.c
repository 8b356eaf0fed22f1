// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: timer_delete is neither a macro nor declared.
 *
 * Set: timer_delete
 * Defines: CDEV_COMPAT_HAVE_TIMER_DELETE 0
 */
#include <linux/timer.h>

#ifdef timer_delete
#error "timer_delete is a macro"
#endif
int timer_delete;
