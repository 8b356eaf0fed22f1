// SPDX-License-Identifier: GPL-2.0-only
/* Size baseline for make bench: a char device the legacy way, no cdev-compat helper. */
#include <linux/fs.h>
#include <linux/module.h>

static int bench_major;

static const struct file_operations bench_fops = {
	.owner = THIS_MODULE,
};

static int __init bench_init(void)
{
	bench_major = register_chrdev(0, "bench_legacy", &bench_fops);
	return bench_major < 0 ? bench_major : 0;
}

static void __exit bench_exit(void)
{
	unregister_chrdev(bench_major, "bench_legacy");
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_LICENSE("GPL");
