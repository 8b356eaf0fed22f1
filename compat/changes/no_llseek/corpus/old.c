// SPDX-License-Identifier: GPL-2.0-only
/*
 * no_llseek corpus, old spelling: a device that cannot seek says so with .llseek = no_llseek, as drivers did before 6.12.
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
	.llseek = no_llseek,
};

CC_MISC_MODULE(cc_fops);
MODULE_DESCRIPTION("cdev-compat API change corpus: no_llseek, old spelling");
MODULE_LICENSE("GPL");
