// SPDX-License-Identifier: GPL-2.0-only
/*
 * vlegacy - a legacy char driver as out-of-tree vendors write it: register_chrdev() with a
 * dynamic major, a class whose class_create() spelling is chosen by LINUX_VERSION_CODE,
 * a __register_chrdev() range sized at run time, and an exit function that returns the
 * void result of unregister_chrdev(). Written for the cdev-compat host tests.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/version.h>

static int vlegacy_major;
static int vlegacy_range_major;
static struct class *vlegacy_class;

static const struct file_operations vlegacy_fops = {
	.owner = THIS_MODULE,
};

static void vlegacy_unregister(void)
{
	return unregister_chrdev(vlegacy_major, "vlegacy");
}

static int __init vlegacy_init(void)
{
	vlegacy_major = register_chrdev(0, "vlegacy", &vlegacy_fops);
	if (vlegacy_major < 0)
		return vlegacy_major;
	vlegacy_range_major = __register_chrdev(0, 0, num_possible_cpus(), "vlegacy_cpu",
						&vlegacy_fops);
	if (vlegacy_range_major < 0) {
		vlegacy_unregister();
		return vlegacy_range_major;
	}
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	vlegacy_class = class_create("vlegacy");
#else
	vlegacy_class = class_create(THIS_MODULE, "vlegacy");
#endif
	if (IS_ERR(vlegacy_class)) {
		__unregister_chrdev(vlegacy_range_major, 0, num_possible_cpus(), "vlegacy_cpu");
		vlegacy_unregister();
		return PTR_ERR(vlegacy_class);
	}
	pr_info("major %d\n", vlegacy_major);
	return 0;
}

static void __exit vlegacy_exit(void)
{
	class_destroy(vlegacy_class);
	__unregister_chrdev(vlegacy_range_major, 0, num_possible_cpus(), "vlegacy_cpu");
	return vlegacy_unregister();
}

module_init(vlegacy_init);
module_exit(vlegacy_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cdev-compat host test: a legacy vendor driver");
