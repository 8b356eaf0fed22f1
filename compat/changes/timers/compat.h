/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Timers: the names before and after the renames, on every kernel.
 *
 * 6.2 added timer_delete() and timer_delete_sync() beside del_timer() and del_timer_sync(),
 * and 6.15 removed the old names; 6.16 renamed from_timer() timer_container_of(); 6.13 added
 * hrtimer_setup(), which takes the callback, and 6.15 removed hrtimer_init(). Distributions
 * backported some of the new names without the others (Debian's 5.10 has
 * timer_delete_sync() but not timer_delete()), so each name is probed on its own.
 *
 * A name a kernel lacks becomes a static inline function calling the one it has (a driver's
 * own "#define timer_delete del_timer" after it still builds without a diagnostic), or, for
 * from_timer() and timer_container_of(), which are macros on every kernel, the object-like
 * macro a driver would write itself (defining it again identically is no diagnostic either).
 */
#ifndef CDEV_COMPAT_CHANGE_TIMERS_H
#define CDEV_COMPAT_CHANGE_TIMERS_H

#include <linux/hrtimer.h>
#include <linux/timer.h>
#include <cdev_compat_probes.h>

#if !CDEV_COMPAT_HAVE_TIMER_DELETE && !defined(timer_delete)
/**
 * timer_delete() - deactivate a timer, as 6.2 names del_timer()
 * @timer: the timer
 *
 * Return: 1 if @timer was pending, 0 if not.
 */
static inline int timer_delete(struct timer_list *timer)
{
	return del_timer(timer);
}
#endif
#if !CDEV_COMPAT_HAVE_TIMER_DELETE_SYNC && !defined(timer_delete_sync)
/**
 * timer_delete_sync() - deactivate a timer and wait for its callback, as 6.2 names
 *	del_timer_sync()
 * @timer: the timer
 *
 * Return: 1 if @timer was pending, 0 if not.
 */
static inline int timer_delete_sync(struct timer_list *timer)
{
	return del_timer_sync(timer);
}
#endif
#if !CDEV_COMPAT_HAVE_DEL_TIMER && !defined(del_timer)
/**
 * del_timer() - deactivate a timer, as before 6.15
 * @timer: the timer
 *
 * Return: 1 if @timer was pending, 0 if not.
 */
static inline int del_timer(struct timer_list *timer)
{
	return timer_delete(timer);
}
#endif
#if !CDEV_COMPAT_HAVE_DEL_TIMER_SYNC && !defined(del_timer_sync)
/**
 * del_timer_sync() - deactivate a timer and wait for its callback, as before 6.15
 * @timer: the timer
 *
 * Return: 1 if @timer was pending, 0 if not.
 */
static inline int del_timer_sync(struct timer_list *timer)
{
	return timer_delete_sync(timer);
}
#endif

/* Macros on every kernel (they take a type and a field name). */
#if !defined(timer_container_of) && defined(from_timer)
#define timer_container_of from_timer
#endif
#if !defined(from_timer) && defined(timer_container_of)
#define from_timer timer_container_of
#endif

#if !CDEV_COMPAT_HAVE_HRTIMER_SETUP && !defined(hrtimer_setup)
/**
 * hrtimer_setup() - initialize a high resolution timer with its callback, as 6.13 does it
 * @timer: the timer
 * @function: its callback
 * @clock_id: the clock
 * @mode: the mode
 */
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif
#if !CDEV_COMPAT_HAVE_HRTIMER_INIT && !defined(hrtimer_init)
/*
 * The callback a timer has between hrtimer_init() and the driver's "timer->function = fn"
 * (hrtimer_setup() wants one).
 */
static inline enum hrtimer_restart cdev_compat_hrtimer_unset(struct hrtimer *timer)
{
	return HRTIMER_NORESTART;
}

/**
 * hrtimer_init() - initialize a high resolution timer, as before 6.15
 * @timer: the timer
 * @clock_id: the clock
 * @mode: the mode
 *
 * The driver then sets @timer->function, as with the old hrtimer_init().
 */
static inline void hrtimer_init(struct hrtimer *timer, clockid_t clock_id,
				enum hrtimer_mode mode)
{
	hrtimer_setup(timer, cdev_compat_hrtimer_unset, clock_id, mode);
}
#endif

#endif /* CDEV_COMPAT_CHANGE_TIMERS_H */
