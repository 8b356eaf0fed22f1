// SPDX-License-Identifier: GPL-2.0-only
/*
 * no_llseek corpus, new spelling: a device that cannot seek leaves .llseek out, as 6.12 wants: a NULL .llseek cannot seek.
 * The test: lseek() on it fails with ESPIPE.
 */
#include <linux/fs.h>
#include <linux/module.h>

#include "cc_corpus.h"

static ssize_t cc_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	return cc_read_line(buf, len, ppos, "no_llseek\n");
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.read = cc_read,
};

CC_MISC_MODULE(cc_fops);
MODULE_DESCRIPTION("cdev-compat API change corpus: no_llseek, new spelling");
MODULE_LICENSE("GPL");
