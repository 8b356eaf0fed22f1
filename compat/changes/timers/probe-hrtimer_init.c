// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: hrtimer_init() can be called (a function, an inline or a macro).
 *
 * Detects: hrtimer_init(), removed once its users had moved to hrtimer_setup() (6.15).
 *
 * Set: hrtimer_init
 * Defines: CDEV_COMPAT_HAVE_HRTIMER_INIT 1
 */
#include <linux/hrtimer.h>

void cdev_compat_probe(struct hrtimer *t);
void cdev_compat_probe(struct hrtimer *t)
{
	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
