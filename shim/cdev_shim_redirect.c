// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim redirect device: written as a legacy driver, with register_chrdev() and
 * unregister_chrdev(major, name) and no cdev-compat call. Kbuild compiles this file with
 * CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV defined and cdev_compat.h force-included, so those
 * calls are served by cdev-compat regions. Reads report whether the region behind the
 * open file is one (the only place that knows about cdev-compat, and only to report it).
 * Like most legacy drivers it creates no device node: tests mknod one from /proc/devices.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": redirect: " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>

#include "cdev_shim.h"

#define REDIRECT_NAME "cdev_shim_redirect"

static int redirect_major;

static bool served_by_cdev_compat(struct inode *inode)
{
	bool found = false;
#ifdef CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV
	struct cdev_compat_redirect *rd;

	mutex_lock(&cdev_compat_redirect_lock);
	list_for_each_entry(rd, &cdev_compat_redirects, node)
		if (&rd->region.cdev == inode->i_cdev)
			found = true;
	mutex_unlock(&cdev_compat_redirect_lock);
#endif
	return found;
}

static void redirect_info(struct inode *inode, struct cdev_shim_region_info *info)
{
	info->name = REDIRECT_NAME;
	info->major = imajor(inode);
	info->minor = iminor(inode);
	info->index = iminor(inode);
	info->served_by_cdev_compat = served_by_cdev_compat(inode);
}

static ssize_t redirect_read(struct file *file, char __user *buf, size_t len,
			     loff_t *ppos)
{
	struct cdev_shim_region_info info;

	redirect_info(file_inode(file), &info);
	return cdev_shim_report(&info, buf, len, ppos);
}

static ssize_t redirect_write(struct file *file, const char __user *buf,
			      size_t len, loff_t *ppos)
{
	return len;
}

static long redirect_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct cdev_shim_region_info info;

	if (cmd != CDEV_SHIM_IOC_WHOAMI)
		return -ENOTTY;
	redirect_info(file_inode(file), &info);
	return cdev_shim_whoami(&info, arg);
}

static const struct file_operations redirect_fops = {
	.owner = THIS_MODULE,
	.read = redirect_read,
	.write = redirect_write,
	.unlocked_ioctl = redirect_ioctl,
};

/**
 * cdev_shim_redirect_init() - register the redirect device the legacy way
 *
 * Return: 0 or a negative errno, with nothing left registered.
 */
int cdev_shim_redirect_init(void)
{
	int ret;

	ret = register_chrdev(0, REDIRECT_NAME, &redirect_fops);
	if (ret < 0) {
		pr_err("register_chrdev: %d\n", ret);
		return ret;
	}
	redirect_major = ret;
	return 0;
}

/**
 * cdev_shim_redirect_exit() - remove the redirect device the legacy way
 */
void cdev_shim_redirect_exit(void)
{
	unregister_chrdev(redirect_major, REDIRECT_NAME);
}
