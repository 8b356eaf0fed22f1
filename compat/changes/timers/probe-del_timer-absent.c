// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: del_timer is neither a macro nor declared.
 *
 * Set: del_timer
 * Defines: CDEV_COMPAT_HAVE_DEL_TIMER 0
 */
#include <linux/timer.h>

#ifdef del_timer
#error "del_timer is a macro"
#endif
int del_timer;
