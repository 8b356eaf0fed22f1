// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: del_timer_sync is neither a macro nor declared.
 *
 * Set: del_timer_sync
 * Defines: CDEV_COMPAT_HAVE_DEL_TIMER_SYNC 0
 */
#include <linux/timer.h>

#ifdef del_timer_sync
#error "del_timer_sync is a macro"
#endif
int del_timer_sync;
