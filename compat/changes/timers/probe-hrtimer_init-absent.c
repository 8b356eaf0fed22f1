// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: hrtimer_init is neither a macro nor declared.
 *
 * Set: hrtimer_init
 * Defines: CDEV_COMPAT_HAVE_HRTIMER_INIT 0
 */
#include <linux/hrtimer.h>

#ifdef hrtimer_init
#error "hrtimer_init is a macro"
#endif
int hrtimer_init;
