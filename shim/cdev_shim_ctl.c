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
 * A test region is unregistered at run time, maybe while its devices are open, so it is
 * freed by the release() of a kobject that its cdev holds (the region's @parent), after the
 * last close. That release is this module's code and may run seconds after the last put
 * (CONFIG_DEBUG_KOBJECT_RELEASE), so each region's kobject holds the module's own kobject,
 * which unloading waits for, until its release has freed it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": ctl: " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <cdev_compat.h>

#include "cdev_shim.h"

#define CTL_MAX_REGIONS 16

/**
 * struct ctl_region - a test region and the name it is registered under
 * @dev: the device state with its region
 * @name: "cdev_shim_t<id>"
 * @req: the request it was registered with, for CDEV_SHIM_IOC_REUSE
 * @kobj: owns the memory; the cdev holds a reference until its last close
 */
struct ctl_region {
	struct cdev_shim_dev dev;
	char *name;
	struct cdev_shim_region_req req;
	struct kobject kobj;
};

static void ctl_region_release(struct kobject *kobj)
{
	struct ctl_region *cr = container_of(kobj, struct ctl_region, kobj);

	kfree(cr->name);
	kfree(cr);
	kobject_put(&THIS_MODULE->mkobj.kobj);
}

/* Not const: kobject_init() takes a const ktype only since 6.1. */
static struct kobj_type ctl_region_ktype = {
	.release = ctl_region_release,
};

static struct cdev_compat_region ctl;
static struct ctl_region *regions[CTL_MAX_REGIONS];
static DEFINE_MUTEX(regions_lock);

/*
 * The region's own reference goes first: a registered region is then kept only by its cdev,
 * and cdev_compat_unregister() must not touch it once cdev_del() may have freed it.
 */
static void ctl_free(unsigned int id)
{
	struct ctl_region *cr = regions[id];
	bool registered = cr->dev.region.count;

	regions[id] = NULL;
	kobject_put(&cr->kobj);
	if (registered)
		cdev_compat_unregister(&cr->dev.region);
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
	for (id = 0; id < CTL_MAX_REGIONS && regions[id]; id++)
		;
	if (id == CTL_MAX_REGIONS)
		return -ENOSPC;
	cr = kzalloc(sizeof(*cr), GFP_KERNEL);
	if (!cr)
		return -ENOMEM;
	kobject_init(&cr->kobj, &ctl_region_ktype);
	kobject_get(&THIS_MODULE->mkobj.kobj);
	cr->dev.region.parent = &cr->kobj;
	cr->name = kasprintf(GFP_KERNEL, "cdev_shim_t%u", id);
	if (!cr->name) {
		ret = -ENOMEM;
		goto err_put;
	}
	ret = cdev_compat_register(&cr->dev.region, req->major, req->baseminor,
				   req->count, cr->name, &cdev_shim_region_fops.fops);
	if (ret)
		goto err_put;
	if (req->nodes) {
		prefix = req->count == 1 ? kstrdup(cr->name, GFP_KERNEL) :
			 kasprintf(GFP_KERNEL, "%s_", cr->name);
		ret = prefix ? cdev_compat_create_nodes(&cr->dev.region, cr->name, 0666,
							prefix) : -ENOMEM;
		kfree(prefix);
		if (ret)
			goto err_unregister;
	}
	cr->req = *req;
	regions[id] = cr;
	req->id = id;
	req->first_major = MAJOR(cr->dev.region.first);
	req->first_minor = MINOR(cr->dev.region.first);
	return 0;

err_unregister:
	cdev_compat_unregister(&cr->dev.region);
err_put:
	kobject_put(&cr->kobj);
	return ret;
}

/*
 * Register region @id's handle again with its request: after cdev_compat_unregister() when
 * @unregister_first (the helper must refuse while a file still holds the cdev), or while it
 * is registered (the helper must refuse). A handle whose registration failed is kept,
 * unregistered, so that it can be registered again (a failed register must leave it
 * usable) or freed with CDEV_SHIM_IOC_UNREGISTER.
 */
static int ctl_reuse(unsigned int id, bool unregister_first)
{
	struct ctl_region *cr = regions[id];

	if (unregister_first)
		cdev_compat_unregister(&cr->dev.region);
	return cdev_compat_register(&cr->dev.region, cr->req.major, cr->req.baseminor,
				    cr->req.count, cr->name, &cdev_shim_region_fops.fops);
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
		ret = regions[reuse.id] ? ctl_reuse(reuse.id, reuse.unregister_first) : -ENOENT;
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
		ret = regions[id] ? 0 : -ENOENT;
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
 */
void cdev_shim_ctl_exit(void)
{
	unsigned int id;

	cdev_compat_unregister(&ctl);
	mutex_lock(&regions_lock);
	for (id = 0; id < CTL_MAX_REGIONS; id++)
		if (regions[id])
			ctl_free(id);
	mutex_unlock(&regions_lock);
}
