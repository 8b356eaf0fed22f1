// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_range - one device per possible CPU on one major, registered with
 * __register_chrdev(). The major is a module parameter; 0 (the default) asks
 * for a dynamic one, which __register_chrdev() returns and the driver keeps
 * with "if (err > 0) major = err". The device nodes are made with that major.
 *
 * Written for the cdev-compat migration corpus (the shape of issue 14,
 * failure 1).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#define CORP_RANGE_NAME "corp_range"

static int major;	/* 0: dynamic */
module_param(major, int, 0444);
MODULE_PARM_DESC(major, "major number, 0 for a dynamic one");

static struct class *corp_range_class;

static ssize_t corp_range_read(struct file *file, char __user *buf,
			       size_t len, loff_t *ppos)
{
	char line[32];
	int n;

	n = scnprintf(line, sizeof(line), "corp_range cpu %u\n",
		      iminor(file_inode(file)));
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static int corp_range_open(struct inode *inode, struct file *file)
{
	if (iminor(inode) >= num_possible_cpus())
		return -ENODEV;
	return 0;
}

static const struct file_operations corp_range_fops = {
	.owner = THIS_MODULE,
	.open = corp_range_open,
	.read = corp_range_read,
};

static void corp_range_nodes_remove(unsigned int n)
{
	while (n--)
		device_destroy(corp_range_class, MKDEV(major, n));
}

static int __init corp_range_init(void)
{
	struct device *dev;
	unsigned int cpu;
	int err;

	err = __register_chrdev(major, 0, num_possible_cpus(), CORP_RANGE_NAME,
				&corp_range_fops);
	if (err < 0) {
		pr_err("cannot register major %d\n", major);
		return err;
	}
	if (err > 0)
		major = err;

	corp_range_class = class_create(THIS_MODULE, CORP_RANGE_NAME);
	if (IS_ERR(corp_range_class)) {
		err = PTR_ERR(corp_range_class);
		goto out_chrdev;
	}
	for (cpu = 0; cpu < num_possible_cpus(); cpu++) {
		dev = device_create(corp_range_class, NULL, MKDEV(major, cpu),
				    NULL, "corp_range%u", cpu);
		if (IS_ERR(dev)) {
			err = PTR_ERR(dev);
			corp_range_nodes_remove(cpu);
			goto out_class;
		}
	}
	pr_info("major %d, %u devices\n", major, num_possible_cpus());
	return 0;

out_class:
	class_destroy(corp_range_class);
out_chrdev:
	__unregister_chrdev(major, 0, num_possible_cpus(), CORP_RANGE_NAME);
	return err;
}

static void __exit corp_range_exit(void)
{
	corp_range_nodes_remove(num_possible_cpus());
	class_destroy(corp_range_class);
	__unregister_chrdev(major, 0, num_possible_cpus(), CORP_RANGE_NAME);
}

module_init(corp_range_init);
module_exit(corp_range_exit);
MODULE_DESCRIPTION("cdev-compat migration corpus: __register_chrdev() range, major parameter");
MODULE_LICENSE("GPL");
