// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_multi_chrdev - the char device of corp_multi: one minor per channel;
 * reading one gives the channel's value.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include "corp_multi.h"

static ssize_t corp_multi_read(struct file *file, char __user *buf,
			       size_t len, loff_t *ppos)
{
	unsigned int channel = iminor(file_inode(file));
	char line[48];
	int n;

	n = scnprintf(line, sizeof(line), "corp_multi channel %u value %#x\n",
		      channel, corp_multi_channel_value(channel));
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static int corp_multi_open(struct inode *inode, struct file *file)
{
	unsigned int channel = iminor(inode);

	if (channel >= CORP_MULTI_CHANNELS)
		return -ENODEV;
	return 0;
}

static const struct file_operations corp_multi_fops = {
	.owner = THIS_MODULE,
	.open = corp_multi_open,
	.read = corp_multi_read,
};

int corp_multi_chrdev_init(void)
{
	int ret;

	ret = register_chrdev(corp_multi_major, CORP_MULTI_NAME, &corp_multi_fops);
	if (ret < 0)
		return ret;
	if (ret > 0)
		corp_multi_major = ret;
	return 0;
}
