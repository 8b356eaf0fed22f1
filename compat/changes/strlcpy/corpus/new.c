// SPDX-License-Identifier: GPL-2.0-only
/*
 * strlcpy corpus, new spelling: a driver that copies it with strscpy(), whose result is -E2BIG on truncation. The test: the device reads the copy and
 * the result ("ret=... buf=abc truncated=1").
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/string.h>

#include "cc_corpus.h"

static ssize_t cc_read(struct file *file, char __user *buf_user, size_t len, loff_t *ppos)
{
	static const char src[] = "abcdefghij";
	char buf[4], line[64];
	ssize_t ret = strscpy(buf, src, sizeof(buf));

	snprintf(line, sizeof(line), "ret=%zd buf=%s truncated=%d\n", ret, buf,
		 ret == -E2BIG);
	return cc_read_line(buf_user, len, ppos, line);
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.read = cc_read,
};

CC_MISC_MODULE(cc_fops);
MODULE_DESCRIPTION("cdev-compat API change corpus: strlcpy, new spelling");
MODULE_LICENSE("GPL");
