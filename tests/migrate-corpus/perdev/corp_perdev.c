// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_perdev - one major per device: each struct corp_perdev_dev is allocated
 * at load time, registers its own major in a loop (register_chrdev() into
 * dev->major) and is freed at unload. open() finds its device by the major.
 *
 * Written for the cdev-compat migration corpus (per-device majors, a
 * registration inside a loop, error unwinding with goto).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define CORP_PERDEV_MAX 8

static unsigned int ndevs = 3;
module_param(ndevs, uint, 0444);
MODULE_PARM_DESC(ndevs, "number of devices, each with its own major");

struct corp_perdev_dev {
	int major;		/* this device's own major */
	unsigned int index;
	char name[16];
};

static struct corp_perdev_dev *corp_perdev_devs[CORP_PERDEV_MAX];

static ssize_t corp_perdev_read(struct file *file, char __user *buf,
				size_t len, loff_t *ppos)
{
	struct corp_perdev_dev *dev = file->private_data;
	char line[48];
	int n;

	n = scnprintf(line, sizeof(line), "%s minor %u\n", dev->name,
		      iminor(file_inode(file)));
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static int corp_perdev_open(struct inode *inode, struct file *file)
{
	unsigned int i;

	for (i = 0; i < ndevs; i++) {
		if (corp_perdev_devs[i]->major == imajor(inode)) {
			file->private_data = corp_perdev_devs[i];
			return 0;
		}
	}
	return -ENODEV;
}

static const struct file_operations corp_perdev_fops = {
	.owner = THIS_MODULE,
	.open = corp_perdev_open,
	.read = corp_perdev_read,
};

static void corp_perdev_free(unsigned int n)
{
	while (n--) {
		kfree(corp_perdev_devs[n]);
		corp_perdev_devs[n] = NULL;
	}
}

static int __init corp_perdev_init(void)
{
	struct corp_perdev_dev *dev;
	unsigned int i;
	int err;

	if (!ndevs || ndevs > CORP_PERDEV_MAX)
		return -EINVAL;
	for (i = 0; i < ndevs; i++) {
		corp_perdev_devs[i] = kzalloc(sizeof(*dev), GFP_KERNEL);
		if (!corp_perdev_devs[i]) {
			err = -ENOMEM;
			goto err_free;
		}
	}
	for (i = 0; i < ndevs; i++) {
		dev = corp_perdev_devs[i];
		dev->index = i;
		snprintf(dev->name, sizeof(dev->name), "corp_perdev%u", i);
		dev->major = register_chrdev(0, dev->name, &corp_perdev_fops);
		if (dev->major < 0) {
			err = dev->major;
			goto err_unregister;
		}
	}
	return 0;

err_unregister:
	while (i--) {
		dev = corp_perdev_devs[i];
		unregister_chrdev(dev->major, dev->name);
	}
	i = ndevs;
err_free:
	corp_perdev_free(i);
	return err;
}

static void __exit corp_perdev_exit(void)
{
	struct corp_perdev_dev *dev;
	unsigned int i;

	for (i = 0; i < ndevs; i++) {
		dev = corp_perdev_devs[i];
		unregister_chrdev(dev->major, dev->name);
	}
	corp_perdev_free(ndevs);
}

module_init(corp_perdev_init);
module_exit(corp_perdev_exit);
MODULE_DESCRIPTION("cdev-compat migration corpus: one major per device");
MODULE_LICENSE("GPL");
