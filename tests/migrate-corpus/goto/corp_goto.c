// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_goto - a control device (one dynamic major, its state in the driver's
 * one device struct) and a data range (__register_chrdev() on a major that is
 * a parameter, 0 by default), with a class and a node; every step undone by
 * goto on failure.
 *
 * Written for the cdev-compat migration corpus (error paths with goto, ret < 0
 * and ret > 0 tests, a per-device struct to embed the handle in).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#define CORP_GOTO_NDATA 2

struct corp_goto_state {
	struct mutex lock;
	unsigned int opens;
};

static struct corp_goto_state corp_goto;
static struct class *corp_goto_class;
static int ctl_major;
static int data_major;
module_param(data_major, int, 0444);
MODULE_PARM_DESC(data_major, "major of the data devices, 0 for a dynamic one");

static ssize_t corp_goto_ctl_read(struct file *file, char __user *buf,
				  size_t len, loff_t *ppos)
{
	char line[48];
	int n;

	mutex_lock(&corp_goto.lock);
	n = scnprintf(line, sizeof(line), "corp_goto ctl opens %u\n",
		      corp_goto.opens);
	mutex_unlock(&corp_goto.lock);
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static int corp_goto_ctl_open(struct inode *inode, struct file *file)
{
	mutex_lock(&corp_goto.lock);
	corp_goto.opens++;
	mutex_unlock(&corp_goto.lock);
	return 0;
}

static const struct file_operations corp_goto_ctl_fops = {
	.owner = THIS_MODULE,
	.open = corp_goto_ctl_open,
	.read = corp_goto_ctl_read,
};

static ssize_t corp_goto_data_read(struct file *file, char __user *buf,
				   size_t len, loff_t *ppos)
{
	char line[48];
	int n;

	n = scnprintf(line, sizeof(line), "corp_goto data %u\n",
		      iminor(file_inode(file)));
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static const struct file_operations corp_goto_data_fops = {
	.owner = THIS_MODULE,
	.read = corp_goto_data_read,
};

static int __init corp_goto_init(void)
{
	struct device *dev;
	int ret;

	mutex_init(&corp_goto.lock);
	ctl_major = register_chrdev(0, "corp_goto_ctl", &corp_goto_ctl_fops);
	if (ctl_major < 0)
		return ctl_major;

	ret = __register_chrdev(data_major, 0, CORP_GOTO_NDATA, "corp_goto_data",
				&corp_goto_data_fops);
	if (ret < 0)
		goto err_ctl;
	if (ret > 0)
		data_major = ret;

	corp_goto_class = class_create(THIS_MODULE, "corp_goto");
	if (IS_ERR(corp_goto_class)) {
		ret = PTR_ERR(corp_goto_class);
		goto err_data;
	}
	dev = device_create(corp_goto_class, NULL, MKDEV(ctl_major, 0), NULL,
			    "corp_goto_ctl");
	if (IS_ERR(dev)) {
		ret = PTR_ERR(dev);
		goto err_class;
	}
	return 0;

err_class:
	class_destroy(corp_goto_class);
err_data:
	__unregister_chrdev(data_major, 0, CORP_GOTO_NDATA, "corp_goto_data");
err_ctl:
	unregister_chrdev(ctl_major, "corp_goto_ctl");
	return ret;
}

static void __exit corp_goto_exit(void)
{
	device_destroy(corp_goto_class, MKDEV(ctl_major, 0));
	class_destroy(corp_goto_class);
	__unregister_chrdev(data_major, 0, CORP_GOTO_NDATA, "corp_goto_data");
	unregister_chrdev(ctl_major, "corp_goto_ctl");
}

module_init(corp_goto_init);
module_exit(corp_goto_exit);
MODULE_DESCRIPTION("cdev-compat migration corpus: error paths with goto");
MODULE_LICENSE("GPL");
