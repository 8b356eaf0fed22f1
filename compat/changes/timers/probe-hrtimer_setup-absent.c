// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: hrtimer_setup is neither a macro nor declared.
 *
 * Set: hrtimer_setup
 * Defines: CDEV_COMPAT_HAVE_HRTIMER_SETUP 0
 */
#include <linux/hrtimer.h>

#ifdef hrtimer_setup
#error "hrtimer_setup is a macro"
#endif
int hrtimer_setup;
