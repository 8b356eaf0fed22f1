// SPDX-License-Identifier: GPL-2.0-only
/*
 * timers corpus, old spelling: a driver with a periodic timer and a high resolution timer,
 * spelled hrtimer_init() then .function, from_timer(), del_timer() and del_timer_sync(), as
 * before 6.15. The test: both have fired ("timer=N hrtimer=M", both above 0).
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/timer.h>

#include "cc_corpus.h"

struct cc_dev {
	struct timer_list timer;
	atomic_t ticks;
};

static struct cc_dev cc_dev;
static struct hrtimer cc_hrtimer;
static atomic_t cc_hrticks;
static bool cc_stopping;

static void cc_timer_fn(struct timer_list *t)
{
	struct cc_dev *dev = from_timer(dev, t, timer);

	atomic_inc(&dev->ticks);
	if (!READ_ONCE(cc_stopping))
		mod_timer(&dev->timer, jiffies + msecs_to_jiffies(20));
}

static enum hrtimer_restart cc_hrtimer_fn(struct hrtimer *t)
{
	atomic_inc(&cc_hrticks);
	hrtimer_forward_now(t, ms_to_ktime(20));
	return HRTIMER_RESTART;
}

static ssize_t cc_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	char line[64];

	snprintf(line, sizeof(line), "timer=%d hrtimer=%d\n", atomic_read(&cc_dev.ticks),
		 atomic_read(&cc_hrticks));
	return cc_read_line(buf, len, ppos, line);
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.read = cc_read,
};

CC_MISC(cc_fops);

static int __init cc_init(void)
{
	int ret;

	timer_setup(&cc_dev.timer, cc_timer_fn, 0);
	mod_timer(&cc_dev.timer, jiffies + msecs_to_jiffies(20));
	hrtimer_init(&cc_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	cc_hrtimer.function = cc_hrtimer_fn;
	hrtimer_start(&cc_hrtimer, ms_to_ktime(20), HRTIMER_MODE_REL);
	ret = misc_register(&cc_misc);
	if (ret) {
		WRITE_ONCE(cc_stopping, true);
		hrtimer_cancel(&cc_hrtimer);
		del_timer_sync(&cc_dev.timer);
	}
	return ret;
}

static void __exit cc_exit(void)
{
	misc_deregister(&cc_misc);
	hrtimer_cancel(&cc_hrtimer);
	/* The callback re-arms the timer: stop that, then delete it and wait for a running one. */
	WRITE_ONCE(cc_stopping, true);
	if (del_timer(&cc_dev.timer))
		pr_debug("the timer was pending\n");
	del_timer_sync(&cc_dev.timer);
}

module_init(cc_init);
module_exit(cc_exit);
MODULE_DESCRIPTION("cdev-compat API change corpus: timers, old spelling");
MODULE_LICENSE("GPL");
