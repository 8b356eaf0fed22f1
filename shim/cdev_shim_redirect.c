// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim redirect device: written as a legacy driver, with register_chrdev() here and
 * unregister_chrdev(major, name) in another file (cdev_shim_redirect_teardown.c), as
 * multi-file drivers do, and no cdev-compat call. Kbuild compiles both files with
 * CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV defined in a force-included build, so those calls are
 * served by cdev-compat. Reads report whether the cdev behind the open file is one
 * (the only place that knows about cdev-compat, and only to report it). Like most legacy
 * drivers it creates no device node: tests mknod one from /proc/devices. The control device
 * can unregister and register it again at run time (cdev_shim_redirect_set()), also while
 * one of its files is open.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": redirect: " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "cdev_shim.h"

static int redirect_major;
static DEFINE_MUTEX(redirect_lock);

static bool served_by_cdev_compat(struct inode *inode)
{
#ifdef CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV
	return cdev_compat_redirect_serves(inode);
#else
	return false;
#endif
}

static void redirect_info(struct inode *inode, struct cdev_shim_region_info *info)
{
	info->name = CDEV_SHIM_REDIRECT_NAME;
	info->major = imajor(inode);
	info->minor = iminor(inode);
	info->index = iminor(inode);
	info->served_by_cdev_compat = served_by_cdev_compat(inode);
}

static const struct cdev_shim_fops redirect_fops = CDEV_SHIM_FOPS(NULL, redirect_info);

/**
 * cdev_shim_redirect_set() - register or unregister the redirect device the legacy way
 * @on: true to register it (when it is not), false to unregister it (when it is)
 *
 * Return: 0 or a negative errno; the major the device has or had (>= 0) for @on.
 */
int cdev_shim_redirect_set(bool on)
{
	int ret = 0;

	mutex_lock(&redirect_lock);
	if (on && !redirect_major) {
		ret = register_chrdev(0, CDEV_SHIM_REDIRECT_NAME, &redirect_fops.fops);
		if (ret < 0)
			pr_err_ratelimited("register_chrdev: %d\n", ret);
		else
			redirect_major = ret;
	} else if (!on && redirect_major) {
		cdev_shim_redirect_unregister(redirect_major);
		redirect_major = 0;
	}
	if (ret >= 0)
		ret = redirect_major;
	mutex_unlock(&redirect_lock);
	return ret;
}

/**
 * cdev_shim_redirect_init() - register the redirect device the legacy way
 *
 * Return: 0 or a negative errno, with nothing left registered.
 */
int cdev_shim_redirect_init(void)
{
	int ret = cdev_shim_redirect_set(true);

	return ret < 0 ? ret : 0;
}

/**
 * cdev_shim_redirect_exit() - remove the redirect device the legacy way
 */
void cdev_shim_redirect_exit(void)
{
	cdev_shim_redirect_set(false);
}
