// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: eventfd_signal() takes 2 arguments (function, inline or macro).
 *
 * Detects: the kernels before 6.8, where "eventfd: simplify eventfd_signal()" dropped the count (every caller passed 1).
 *
 * Set: eventfd_signal
 * Defines: CDEV_COMPAT_EVENTFD_SIGNAL_ARGS 2
 */
#include <linux/eventfd.h>

void cdev_compat_probe(struct eventfd_ctx *ctx);
void cdev_compat_probe(struct eventfd_ctx *ctx)
{
	eventfd_signal(ctx, 1);
}
