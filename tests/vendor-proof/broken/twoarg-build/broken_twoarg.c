// SPDX-License-Identifier: GPL-2.0-only
/*
 * broken_twoarg - made to fail the vendor matrix's build cell on the two-arg kernels: it
 * calls unregister_chrdev() with one argument and does not use cdev-compat, so it builds only
 * where the kernel's own unregister_chrdev() takes one argument (the onearg kernel).
 */
#include <linux/fs.h>
#include <linux/module.h>

static int broken_major;

static const struct file_operations broken_fops = {
	.owner = THIS_MODULE,
};

static int __init broken_init(void)
{
	broken_major = register_chrdev(0, "broken_twoarg", &broken_fops);
	return broken_major < 0 ? broken_major : 0;
}

static void __exit broken_exit(void)
{
	unregister_chrdev(broken_major);
}

module_init(broken_init);
module_exit(broken_exit);
MODULE_DESCRIPTION("vendor matrix proof: builds on the one-arg kernel only");
MODULE_LICENSE("GPL");
