// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: eventfd_signal() takes 1 argument (function, inline or macro).
 *
 * Detects: 6.8 and later.
 *
 * Set: eventfd_signal
 * Defines: CDEV_COMPAT_EVENTFD_SIGNAL_ARGS 1
 */
#include <linux/eventfd.h>

void cdev_compat_probe(struct eventfd_ctx *ctx);
void cdev_compat_probe(struct eventfd_ctx *ctx)
{
	eventfd_signal(ctx);
}
