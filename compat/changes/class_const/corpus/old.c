// SPDX-License-Identifier: GPL-2.0-only
/*
 * class_const corpus, old spelling: a driver with a class of its own, defined statically with
 * non-const callbacks and .owner, as before 6.2: devnode() gives the node mode 0666, dev_uevent() adds
 * CC_CORPUS=1, a class attribute reads "info". (The migration tool rewrites it, as a vendor
 * would build it.) The test: the node's mode, the attribute, the device's uevent.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>

#include "cc_corpus.h"

static dev_t cc_devt;
static struct cdev cc_cdev;
static struct device *cc_device;

static ssize_t cc_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	return cc_read_line(buf, len, ppos, "class_const\n");
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.read = cc_read,
};

static char *cc_devnode(struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return NULL;
}

static int cc_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "CC_CORPUS=1");
}

static ssize_t info_show(struct class *cls, struct class_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "info\n");
}
static CLASS_ATTR_RO(info);

static struct attribute *cc_class_attrs[] = {
	&class_attr_info.attr,
	NULL,
};
ATTRIBUTE_GROUPS(cc_class);

static struct class cc_class = {
	.name = KBUILD_MODNAME,
	.owner = THIS_MODULE,
	.devnode = cc_devnode,
	.dev_uevent = cc_uevent,
	.class_groups = cc_class_groups,
};

static int __init cc_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&cc_devt, 0, 1, KBUILD_MODNAME);
	if (ret)
		return ret;
	cdev_init(&cc_cdev, &cc_fops);
	ret = cdev_add(&cc_cdev, cc_devt, 1);
	if (ret)
		goto err_region;
	ret = class_register(&cc_class);
	if (ret)
		goto err_cdev;
	cc_device = device_create(&cc_class, NULL, cc_devt, NULL, KBUILD_MODNAME);
	if (IS_ERR(cc_device)) {
		ret = PTR_ERR(cc_device);
		goto err_class;
	}
	return 0;

err_class:
	class_unregister(&cc_class);
err_cdev:
	cdev_del(&cc_cdev);
err_region:
	unregister_chrdev_region(cc_devt, 1);
	return ret;
}

static void __exit cc_exit(void)
{
	device_destroy(&cc_class, cc_devt);
	class_unregister(&cc_class);
	cdev_del(&cc_cdev);
	unregister_chrdev_region(cc_devt, 1);
}

module_init(cc_init);
module_exit(cc_exit);
MODULE_DESCRIPTION("cdev-compat API change corpus: class_const, old spelling");
MODULE_LICENSE("GPL");
