// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim control device, /dev/cdev_shim_ctl (mode 0600, and CAP_SYS_ADMIN for every
 * ioctl): registers and unregisters test regions through the cdev-compat helpers on request
 * (CDEV_SHIM_IOC_REGISTER/UNREGISTER/REUSE), so the guest tests can try any major, base
 * minor and count (up to CDEV_SHIM_MAX_COUNT), clashes and bad ranges, and get the helper's
 * errno back; and unregisters or registers the redirect device at run time
 * (CDEV_SHIM_IOC_REDIRECT). Test region <id> is named cdev_shim_t<id>; with nodes, its
 * devices are /dev/cdev_shim_t<id>_<minor> (/dev/cdev_shim_t<id> for one minor). They serve
 * the main device's file operations.
 *
 * A test region is unregistered at run time, maybe while its devices are open, and its
 * handle registered again at once (REUSE), as a driver does on every replug. The regions live
 * in static slots: each registration's cdev belongs to the kernel, which frees it after the
 * last close and only then lets the module go (cdev-compat's cdevs hold the module's
 * kobject), so nothing here frees memory a file may still use, and no reference is dropped
 * by this module's code but its own handles' (docs/lifetimes.md).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": ctl: " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <cdev_compat.h>

#include "cdev_shim.h"

#define CTL_MAX_REGIONS 16

/**
 * struct ctl_region - a test region slot and the name it is registered under
 * @dev: the device state with its region
 * @used: the slot holds a test region (registered, or kept after a failed REUSE)
 * @name: "cdev_shim_t<id>"
 * @req: the request it was registered with, for CDEV_SHIM_IOC_REUSE
 */
struct ctl_region {
	struct cdev_shim_dev dev;
	bool used;
	char name[24];
	struct cdev_shim_region_req req;
};

static struct cdev_compat_region ctl;
static struct ctl_region regions[CTL_MAX_REGIONS];
static DEFINE_MUTEX(regions_lock);

static void ctl_free(unsigned int id)
{
	cdev_compat_unregister(&regions[id].dev.region);
	regions[id].used = false;
}

static int ctl_register(struct cdev_shim_region_req *req)
{
	struct ctl_region *cr;
	char *prefix;
	unsigned int id;
	int ret;

	if (req->count > CDEV_SHIM_MAX_COUNT) {
		pr_err_ratelimited("count %u is above the test regions' limit %u\n",
				   req->count, CDEV_SHIM_MAX_COUNT);
		return -EINVAL;
	}
	for (id = 0; id < CTL_MAX_REGIONS && regions[id].used; id++)
		;
	if (id == CTL_MAX_REGIONS)
		return -ENOSPC;
	cr = &regions[id];
	/* A file of the slot's earlier region may still be open: it keeps that cdev. */
	snprintf(cr->name, sizeof(cr->name), "cdev_shim_t%u", id);
	ret = cdev_compat_register(&cr->dev.region, req->major, req->baseminor,
				   req->count, cr->name, &cdev_shim_region_fops.fops);
	if (ret)
		return ret;
	if (req->nodes) {
		prefix = req->count == 1 ? kstrdup(cr->name, GFP_KERNEL) :
			 kasprintf(GFP_KERNEL, "%s_", cr->name);
		ret = prefix ? cdev_compat_create_nodes(&cr->dev.region, cr->name, 0666,
							prefix) : -ENOMEM;
		kfree(prefix);
		if (ret) {
			cdev_compat_unregister(&cr->dev.region);
			return ret;
		}
	}
	cr->req = *req;
	cr->used = true;
	req->id = id;
	req->first_major = MAJOR(cr->dev.region.first);
	req->first_minor = MINOR(cr->dev.region.first);
	return 0;
}

/*
 * Register region @id's handle again with its request: after cdev_compat_unregister() when
 * @unregister_first (also while a file of it is open: that file keeps the old cdev), or while
 * it is registered (the helper must refuse). With @alt_fops, the new registration serves the
 * alternate file operations, so a test can tell which registration a file reaches. A handle
 * whose registration failed is kept, unregistered, so that it can be registered again (a
 * failed register must leave it usable) or freed with CDEV_SHIM_IOC_UNREGISTER.
 */
static int ctl_reuse(unsigned int id, bool unregister_first, bool alt_fops)
{
	struct ctl_region *cr = &regions[id];

	if (unregister_first)
		cdev_compat_unregister(&cr->dev.region);
	return cdev_compat_register(&cr->dev.region, cr->req.major, cr->req.baseminor,
				    cr->req.count, cr->name,
				    alt_fops ? &cdev_shim_alt_fops.fops :
					       &cdev_shim_region_fops.fops);
}

static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct cdev_shim_region_req req;
	struct cdev_shim_reuse_req reuse;
	u32 id;
	long ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case CDEV_SHIM_IOC_REGISTER:
		if (copy_from_user(&req, (void __user *)arg, sizeof(req)))
			return -EFAULT;
		mutex_lock(&regions_lock);
		ret = ctl_register(&req);
		/* Nobody would hold the id of a region the caller cannot be told about. */
		if (!ret && copy_to_user((void __user *)arg, &req, sizeof(req))) {
			ctl_free(req.id);
			ret = -EFAULT;
		}
		mutex_unlock(&regions_lock);
		return ret;
	case CDEV_SHIM_IOC_REUSE:
		if (copy_from_user(&reuse, (void __user *)arg, sizeof(reuse)))
			return -EFAULT;
		if (reuse.id >= CTL_MAX_REGIONS)
			return -EINVAL;
		mutex_lock(&regions_lock);
		ret = regions[reuse.id].used ?
		      ctl_reuse(reuse.id, reuse.unregister_first, reuse.alt_fops) : -ENOENT;
		mutex_unlock(&regions_lock);
		return ret;
	case CDEV_SHIM_IOC_REDIRECT:
		if (get_user(id, (u32 __user *)arg))
			return -EFAULT;
		return cdev_shim_redirect_set(id);
	case CDEV_SHIM_IOC_UNREGISTER:
		if (get_user(id, (u32 __user *)arg))
			return -EFAULT;
		if (id >= CTL_MAX_REGIONS)
			return -EINVAL;
		mutex_lock(&regions_lock);
		ret = regions[id].used ? 0 : -ENOENT;
		if (!ret)
			ctl_free(id);
		mutex_unlock(&regions_lock);
		return ret;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = ctl_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/**
 * cdev_shim_ctl_init() - register /dev/cdev_shim_ctl
 *
 * Return: 0 or a negative errno, with nothing left registered.
 */
int cdev_shim_ctl_init(void)
{
	int ret;

	ret = cdev_compat_register(&ctl, 0, 0, 1, "cdev_shim_ctl", &ctl_fops);
	if (ret)
		return ret;
	ret = cdev_compat_create_nodes(&ctl, NULL, 0600, "cdev_shim_ctl");
	if (ret)
		cdev_compat_unregister(&ctl);
	return ret;
}

/**
 * cdev_shim_ctl_exit() - remove the control device and every test region
 *
 * A region unregistered earlier needs nothing: its cdevs hold the module's kobject until the
 * kernel has released them, so the module's memory outlives them.
 */
void cdev_shim_ctl_exit(void)
{
	unsigned int id;

	cdev_compat_unregister(&ctl);
	mutex_lock(&regions_lock);
	for (id = 0; id < CTL_MAX_REGIONS; id++)
		if (regions[id].used)
			ctl_free(id);
	mutex_unlock(&regions_lock);
}
