// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_ptr_batch - the batch device of corp_ptr: CORP_PTR_UNITS minors, each a
 * unit that reads back its own number.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include "corp_ptr.h"

#define CORP_PTR_UNITS 4

static ssize_t corp_ptr_read(struct file *file, char __user *buf, size_t len,
			     loff_t *ppos)
{
	char line[32];
	int n;

	n = scnprintf(line, sizeof(line), "corp_ptr unit %u\n",
		      iminor(file_inode(file)));
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static int corp_ptr_open(struct inode *inode, struct file *file)
{
	if (iminor(inode) >= CORP_PTR_UNITS)
		return -ENXIO;
	return 0;
}

static const struct file_operations corp_ptr_fops = {
	.owner = THIS_MODULE,
	.open = corp_ptr_open,
	.read = corp_ptr_read,
};

int corp_ptr_batch_init(int *majordev)
{
	int err;

	err = register_chrdev(*majordev, "corp_ptr", &corp_ptr_fops);
	if (err < 0)
		return err;
	if (*majordev == 0)
		*majordev = err;
	return 0;
}

void corp_ptr_batch_cleanup(int majordev)
{
	unregister_chrdev(majordev, "corp_ptr");
}
