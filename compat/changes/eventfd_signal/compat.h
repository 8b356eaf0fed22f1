/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * eventfd_signal(): with the count (before 6.8) and without it (6.8 and later), on every kernel.
 *
 * eventfd_signal() becomes a macro that counts its arguments and calls a correctly typed
 * static inline function, which calls the kernel's own function, by its parenthesised name,
 * with the arity the probes found; each argument is evaluated once. The two-argument form
 * returns what the kernel's returned (the count added), and adds @n on a kernel whose
 * eventfd_signal() adds 1, by calling it @n times.
 */
#ifndef CDEV_COMPAT_CHANGE_EVENTFD_SIGNAL_H
#define CDEV_COMPAT_CHANGE_EVENTFD_SIGNAL_H

#include <linux/eventfd.h>
#include <cdev_compat_args.h>
#include <cdev_compat_probes.h>

/**
 * cdev_compat_eventfd_signal_2() - eventfd_signal(ctx, n), as before 6.8
 * @ctx: the eventfd context
 * @n: what to add to its counter
 *
 * Return: the amount added (@n), as the kernel's before 6.8.
 */
static inline __u64 cdev_compat_eventfd_signal_2(struct eventfd_ctx *ctx, __u64 n)
{
#if CDEV_COMPAT_EVENTFD_SIGNAL_ARGS == 2
	return (eventfd_signal)(ctx, n);
#else
	__u64 i;

	for (i = 0; i < n; i++)
		(eventfd_signal)(ctx);
	return n;
#endif
}

/**
 * cdev_compat_eventfd_signal_1() - eventfd_signal(ctx), as from 6.8 on: add 1
 * @ctx: the eventfd context
 */
static inline void cdev_compat_eventfd_signal_1(struct eventfd_ctx *ctx)
{
#if CDEV_COMPAT_EVENTFD_SIGNAL_ARGS == 2
	(eventfd_signal)(ctx, 1);
#else
	(eventfd_signal)(ctx);
#endif
}

#undef eventfd_signal
#define eventfd_signal(...)						\
	CDEV_COMPAT_CAT(cdev_compat_eventfd_signal_,			\
			CDEV_COMPAT_NARGS(__VA_ARGS__))(__VA_ARGS__)

#endif /* CDEV_COMPAT_CHANGE_EVENTFD_SIGNAL_H */
