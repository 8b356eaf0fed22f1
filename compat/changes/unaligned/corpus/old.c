// SPDX-License-Identifier: GPL-2.0-only
/*
 * unaligned corpus, old spelling: a driver that reads a little-endian word at an odd offset
 * of a packet, with <asm/unaligned.h>. The test: the device reads "0x05040302".
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <asm/unaligned.h>

#include "cc_corpus.h"

static ssize_t cc_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	static const u8 packet[] = { 0x01, 0x02, 0x03, 0x04, 0x05 };
	char line[32];

	snprintf(line, sizeof(line), "0x%08x\n", get_unaligned_le32(packet + 1));
	return cc_read_line(buf, len, ppos, line);
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.read = cc_read,
};

CC_MISC_MODULE(cc_fops);
MODULE_DESCRIPTION("cdev-compat API change corpus: unaligned, old spelling");
MODULE_LICENSE("GPL");
