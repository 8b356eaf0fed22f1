// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: timer_delete_sync is neither a macro nor declared.
 *
 * Set: timer_delete_sync
 * Defines: CDEV_COMPAT_HAVE_TIMER_DELETE_SYNC 0
 */
#include <linux/timer.h>

#ifdef timer_delete_sync
#error "timer_delete_sync is a macro"
#endif
int timer_delete_sync;
