// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim legacy devices: registered by the kernel's own __register_chrdev() (through
 * cdev_compat_kernel_register_chrdev(): the module is built in redirect mode, whose
 * unregister then finds them and passes them on to the kernel), and unregistered with every
 * spelling cdev-compat accepts:
 * unregister_chrdev(major, name), unregister_chrdev(major), and __unregister_chrdev() with
 * 4 and 3 arguments, plus the legacy forms that use the old int result (Kbuild builds this
 * file with CDEV_COMPAT_UNREGISTER_RETURNS_INT). Each gets one device node, /dev/<name>, in
 * the class cdev_shim_legacy, made with the two-argument class_create() of kernels before 6.4
 * on every kernel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <cdev_compat.h>

#include "cdev_shim.h"

/**
 * struct legacy_dev - one legacy registration
 * @name: its name in /proc/devices and /dev
 * @baseminor: first minor (__register_chrdev() ones)
 * @count: minors; 256 means register_chrdev()
 * @major: the major it got
 */
struct legacy_dev {
	const char *name;
	unsigned int baseminor;
	unsigned int count;
	int major;
};

enum { LEGACY_TWO_ARG, LEGACY_ONE_ARG, LEGACY_RANGED_4, LEGACY_RANGED_3, LEGACY_NR };

static struct legacy_dev legacy[LEGACY_NR] = {
	[LEGACY_TWO_ARG] = { "cdev_shim_legacy2", 0, 256 },
	[LEGACY_ONE_ARG] = { "cdev_shim_legacy1", 0, 256 },
	[LEGACY_RANGED_4] = { "cdev_shim_ranged4", 16, 4 },
	[LEGACY_RANGED_3] = { "cdev_shim_ranged3", 32, 8 },
};

static struct class *legacy_class;

static const struct legacy_dev *legacy_of(struct inode *inode)
{
	int i;

	for (i = 0; i < LEGACY_NR; i++)
		if (legacy[i].major == imajor(inode))
			return &legacy[i];
	return NULL;
}

static void legacy_info(struct inode *inode, struct cdev_shim_region_info *info)
{
	const struct legacy_dev *dev = legacy_of(inode);

	info->name = dev ? dev->name : "?";
	info->major = imajor(inode);
	info->minor = iminor(inode);
	info->index = dev ? iminor(inode) - dev->baseminor : 0;
	info->served_by_cdev_compat = false;
}

static const struct cdev_shim_fops legacy_fops = CDEV_SHIM_FOPS(NULL, legacy_info);

/* Each spelling once; the int-result forms are the legacy ones cdev-compat must accept. */
static void legacy_unregister(int which)
{
	struct legacy_dev *dev = &legacy[which];
	int rv;

	if (dev->major <= 0)
		return;
	if (legacy_class)
		device_destroy(legacy_class, MKDEV(dev->major, dev->baseminor));
	switch (which) {
	case LEGACY_TWO_ARG:
		if (unregister_chrdev(dev->major, dev->name) < 0)
			pr_err_ratelimited("unregister_chrdev(%d, %s) failed\n",
					   dev->major, dev->name);
		break;
	case LEGACY_ONE_ARG:
		rv = unregister_chrdev(dev->major);
		if (rv)
			pr_err_ratelimited("unregister_chrdev(%d) returned %d\n",
					   dev->major, rv);
		break;
	case LEGACY_RANGED_4:
		(void)__unregister_chrdev(dev->major, dev->baseminor, dev->count,
					  dev->name);
		break;
	case LEGACY_RANGED_3:
		__unregister_chrdev(dev->major, dev->baseminor, dev->count);
		break;
	}
	dev->major = 0;
}

/**
 * cdev_shim_legacy_init() - register the legacy devices and their nodes
 *
 * Return: 0 or a negative errno, with nothing left registered.
 */
int cdev_shim_legacy_init(void)
{
	struct device *node;
	int i, ret;

	legacy_class = class_create(THIS_MODULE, "cdev_shim_legacy");
	if (IS_ERR(legacy_class)) {
		ret = PTR_ERR(legacy_class);
		legacy_class = NULL;
		return ret;
	}
	for (i = 0; i < LEGACY_NR; i++) {
		struct legacy_dev *dev = &legacy[i];

		/* The kernel's own function: the module is built in redirect mode. */
		ret = cdev_compat_kernel_register_chrdev(0, dev->baseminor, dev->count,
							 dev->name, &legacy_fops.fops);
		if (ret < 0) {
			pr_err_ratelimited("%s: register: %d\n", dev->name, ret);
			goto err;
		}
		dev->major = ret;
		node = device_create(legacy_class, NULL,
				     MKDEV(dev->major, dev->baseminor), NULL,
				     "%s", dev->name);
		if (IS_ERR(node)) {
			ret = PTR_ERR(node);
			pr_err_ratelimited("%s: device node: %d\n", dev->name, ret);
			i++;
			goto err;
		}
	}
	return 0;

err:
	while (i--)
		legacy_unregister(i);
	class_destroy(legacy_class);
	legacy_class = NULL;
	return ret;
}

/**
 * cdev_shim_legacy_exit() - remove the legacy devices with every unregister spelling
 */
void cdev_shim_legacy_exit(void)
{
	int i;

	for (i = 0; i < LEGACY_NR; i++)
		legacy_unregister(i);
	class_destroy(legacy_class);
	legacy_class = NULL;
}
