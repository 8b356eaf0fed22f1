// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused: the major argument has a side effect and the legacy result (the
 * allocated major when it was 0) is used, so it would have to be evaluated
 * twice.
 */
#include <linux/fs.h>
#include <linux/module.h>

static const struct file_operations rs_fops = { .owner = THIS_MODULE };
static int rs_next;
static int rs_major;

static int __init rs_init(void)
{
	rs_major = __register_chrdev(rs_next++, 0, 4, "rs", &rs_fops);
	return rs_major < 0 ? rs_major : 0;
}

static void __exit rs_exit(void)
{
	__unregister_chrdev(rs_major, 0, 4, "rs");
}

module_init(rs_init);
module_exit(rs_exit);
MODULE_LICENSE("GPL");
