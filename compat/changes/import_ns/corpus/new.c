// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_ns corpus, new spelling: a driver that uses a symbol of the namespace CC_TEST_NS and
 * imports it with MODULE_IMPORT_NS("CC_TEST_NS"), as from 6.13 on (modpost refuses a module that does not). The test: the
 * device reads "value=42".
 */
#include <linux/fs.h>
#include <linux/module.h>

#include "cc_corpus.h"

int cc_ns_value(void);

static ssize_t cc_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	char line[32];

	snprintf(line, sizeof(line), "value=%d\n", cc_ns_value());
	return cc_read_line(buf, len, ppos, line);
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.read = cc_read,
};

CC_MISC_MODULE(cc_fops);
MODULE_IMPORT_NS("CC_TEST_NS");
MODULE_DESCRIPTION("cdev-compat API change corpus: import_ns, new spelling");
MODULE_LICENSE("GPL");
