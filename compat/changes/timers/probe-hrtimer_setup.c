// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: hrtimer_setup() can be called (a function, an inline or a macro).
 *
 * Detects: hrtimer_setup(), added in 6.13 ("hrtimers: Introduce hrtimer_setup() to replace hrtimer_init()").
 *
 * Set: hrtimer_setup
 * Defines: CDEV_COMPAT_HAVE_HRTIMER_SETUP 1
 */
#include <linux/hrtimer.h>

static enum hrtimer_restart cdev_compat_probe_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void cdev_compat_probe(struct hrtimer *t);
void cdev_compat_probe(struct hrtimer *t)
{
	hrtimer_setup(t, cdev_compat_probe_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
