// SPDX-License-Identifier: GPL-2.0-only
/*
 * eventfd_signal corpus, old spelling: a driver that signals an eventfd userspace handed it
 * (an ioctl with the eventfd's descriptor) with eventfd_signal(ctx, 1), as before 6.8. The test: the eventfd reads 1.
 */
#include <linux/eventfd.h>
#include <linux/fs.h>
#include <linux/module.h>

#include "cc_corpus.h"

static long cc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct eventfd_ctx *ctx;

	if (cmd != 0xcc01)
		return -ENOTTY;
	ctx = eventfd_ctx_fdget((int)arg);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	eventfd_signal(ctx, 1);
	eventfd_ctx_put(ctx);
	return 0;
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = cc_ioctl,
};

CC_MISC_MODULE(cc_fops);
MODULE_DESCRIPTION("cdev-compat API change corpus: eventfd_signal, old spelling");
MODULE_LICENSE("GPL");
