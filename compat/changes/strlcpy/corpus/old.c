// SPDX-License-Identifier: GPL-2.0-only
/*
 * strlcpy corpus, old spelling: a driver that copies a name with strlcpy() and tests its result for truncation, as drivers did before 6.8. The test: the device reads the copy and
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
	size_t ret = strlcpy(buf, src, sizeof(buf));

	snprintf(line, sizeof(line), "ret=%zu buf=%s truncated=%d\n", ret, buf,
		 ret >= sizeof(buf));
	return cc_read_line(buf_user, len, ppos, line);
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.read = cc_read,
};

CC_MISC_MODULE(cc_fops);
MODULE_DESCRIPTION("cdev-compat API change corpus: strlcpy, old spelling");
MODULE_LICENSE("GPL");
