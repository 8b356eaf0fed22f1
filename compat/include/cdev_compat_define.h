/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_define.h - the bodies of the cdev-compat register and redirect helpers.
 *
 * Included by <cdev_compat.h> in the one source file of a module that defines
 * CDEV_COMPAT_DEFINE_HELPERS, and nowhere else: the helpers, and the redirect list, then
 * exist once per module, whichever of its files calls them. Missing, modpost reports the
 * helpers a module calls as undefined; defined in two files, the link reports a multiple
 * definition. Nothing here is exported: each module has its own copy.
 */
#ifndef CDEV_COMPAT_DEFINE_H
#define CDEV_COMPAT_DEFINE_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <cdev_compat.h>

/**
 * cdev_compat_check_range() - validate a requested range before touching the kernel
 * @name: name of the range, for the message
 * @major: major number, 0 for a dynamic one
 * @baseminor: first minor number
 * @count: number of minors
 *
 * The kernel's register_chrdev_region() returns 0 and registers nothing for a zero count or
 * a range that wraps past the last dev_t, MKDEV() truncates an oversized major or minor into
 * a different device number, and a dynamic major holds one major's minors only; so these
 * are refused here, with a message naming the range. Every major of the range must be
 * below CHRDEV_MAJOR_MAX, which the kernel requires.
 *
 * Return: 0, or -EINVAL.
 */
int cdev_compat_check_range(const char *name, unsigned int major,
			    unsigned int baseminor, unsigned int count)
{
	u64 last;

	if (!count) {
		pr_err("cdev_compat: \"%s\": minor count is 0\n", name);
		return -EINVAL;
	}
	if (major >= CDEV_COMPAT_MAJOR_MAX) {
		pr_err("cdev_compat: \"%s\": major %u is beyond the largest major %u\n",
		       name, major, CDEV_COMPAT_MAJOR_MAX - 1);
		return -EINVAL;
	}
	if (baseminor > MINORMASK) {
		pr_err("cdev_compat: \"%s\": base minor %u is beyond the largest minor %u\n",
		       name, baseminor, MINORMASK);
		return -EINVAL;
	}
	if (!major) {
		if (count > MINORMASK + 1 - baseminor) {
			pr_err("cdev_compat: \"%s\": %u minors from minor %u do not fit in one dynamic major\n",
			       name, count, baseminor);
			return -EINVAL;
		}
		return 0;
	}
	last = (u64)MKDEV(major, baseminor) + count - 1;
	if (last > MKDEV(CDEV_COMPAT_MAJOR_MAX - 1, MINORMASK)) {
		pr_err("cdev_compat: \"%s\": %u minors from %u:%u run past the largest major %u\n",
		       name, count, major, baseminor, CDEV_COMPAT_MAJOR_MAX - 1);
		return -EINVAL;
	}
	return 0;
}

/**
 * cdev_compat_claim_range() - check a range, then register its device numbers
 * @first: where the first device number goes
 * @major: major number, or 0 for a dynamically allocated one
 * @baseminor: first minor number
 * @count: number of minors
 * @name: name for /proc/devices
 *
 * cdev_compat_check_range(), then register_chrdev_region() for a fixed @major or
 * alloc_chrdev_region() for a dynamic one.
 *
 * Return: 0 with *@first set, or a negative errno.
 */
static int cdev_compat_claim_range(dev_t *first, unsigned int major,
				   unsigned int baseminor, unsigned int count,
				   const char *name)
{
	int ret = cdev_compat_check_range(name, major, baseminor, count);

	if (ret)
		return ret;
	*first = MKDEV(major, baseminor);
	if (major)
		return register_chrdev_region(*first, count, name);
	return alloc_chrdev_region(first, baseminor, count, name);
}

/**
 * __cdev_compat_register() - register a range of device numbers and its cdev
 * @r: zeroed region handle, owned by the caller
 * @major: major number, or 0 for a dynamically allocated one
 * @baseminor: first minor number; may be above 255
 * @count: number of minors; may be above 256, and with a fixed major the range may spill
 *	into the following majors
 * @name: name for /proc/devices; kept by pointer
 * @fops: file operations of every device in the range
 * @owner: module that owns @fops; cdev_compat_register() passes THIS_MODULE
 *
 * The steps of the cdev interface in order: register_chrdev_region() or
 * alloc_chrdev_region(), cdev_init(), set the owner (and @r->parent, if set), and cdev_add()
 * last, because the devices are live as soon as it returns. Any failure undoes what was done.
 * A region that is still registered, or whose cdev an open file still holds after
 * cdev_compat_unregister(), is refused: cdev_init() would wipe a cdev in use.
 *
 * Return: 0 with @r->first set, or -EINVAL (zero count, out-of-range major, minor or
 * range), -EBUSY (the range clashes with a registered one, or @r is still in use), -ENOMEM.
 */
int __cdev_compat_register(struct cdev_compat_region *r, unsigned int major,
			   unsigned int baseminor, unsigned int count,
			   const char *name, const struct file_operations *fops,
			   struct module *owner)
{
	dev_t first;
	int ret;

	if (r->count || kref_read(&r->cdev.kobj.kref)) {
		pr_err("cdev_compat: \"%s\": the region handle is still %s\n", name,
		       r->count ? "registered" : "in use by an open file");
		return -EBUSY;
	}
	ret = cdev_compat_claim_range(&first, major, baseminor, count, name);
	if (ret)
		return ret;

	cdev_init(&r->cdev, fops);
	r->cdev.owner = owner;
	if (r->parent)
		cdev_set_parent(&r->cdev, r->parent);
	r->first = first;
	r->count = count;
	r->name = name;

	ret = cdev_add(&r->cdev, first, count);
	if (ret)
		goto err_region;
	return 0;

err_region:
	unregister_chrdev_region(first, count);
	r->count = 0;
	return ret;
}

/**
 * __cdev_compat_register_chrdev() - register_chrdev() in the shape drivers know, on cdev
 * @r: zeroed region handle
 * @major: major number, or 0 for a dynamic one
 * @name: name for /proc/devices
 * @fops: file operations
 * @owner: owning module; cdev_compat_register_chrdev() passes THIS_MODULE
 *
 * Minors 0..255 of @major, as register_chrdev() takes them.
 *
 * Return: the allocated major when @major is 0, 0 when a fixed @major was registered, or a
 * negative errno.
 */
int __cdev_compat_register_chrdev(struct cdev_compat_region *r,
				  unsigned int major, const char *name,
				  const struct file_operations *fops,
				  struct module *owner)
{
	int ret = __cdev_compat_register(r, major, 0, 256, name, fops, owner);

	if (ret)
		return ret;
	return major ? 0 : cdev_compat_major(r);
}

/**
 * cdev_compat_unregister() - remove a region registered by cdev_compat_register()
 * @r: the handle given to the register call; nothing else is needed
 *
 * Removes the device nodes, then the cdev (no new opens), then the device numbers. Files
 * still open keep the cdev until their last close. Calling it for a region that is not
 * registered does nothing.
 */
void cdev_compat_unregister(struct cdev_compat_region *r)
{
	if (!r->count)
		return;
	if (r->remove_nodes)
		r->remove_nodes(r);
	cdev_del(&r->cdev);
	unregister_chrdev_region(r->first, r->count);
	r->count = 0;
}

/**
 * struct cdev_compat_redirect - a register_chrdev() registration served by cdev-compat
 * @node: entry in the module's list
 * @cdev: from cdev_alloc(); its kobject frees it after the last close
 * @first: first device number
 * @major: major as the driver knows it (the allocated one for a dynamic request)
 * @baseminor: first minor
 * @count: number of minors
 */
struct cdev_compat_redirect {
	struct list_head node;
	struct cdev *cdev;
	dev_t first;
	unsigned int major;
	unsigned int baseminor;
	unsigned int count;
};

/* The module's redirected registrations: one list per module, in this one file. */
static LIST_HEAD(cdev_compat_redirects);
static DEFINE_MUTEX(cdev_compat_redirect_lock);

/**
 * cdev_compat_redirect_register() - __register_chrdev() served by a cdev
 * @major: major, or 0 for a dynamic one
 * @baseminor: first minor
 * @count: number of minors
 * @name: name for /proc/devices
 * @fops: file operations
 * @owner: owning module (THIS_MODULE of the caller)
 *
 * As the kernel's __register_chrdev(), with the owner from the calling module: the range
 * is checked and registered, a cdev from cdev_alloc() gets @fops and is added last. The
 * registration is on the module's list, under its lock, before the device is live, so an
 * unregister that runs as soon as the device is live finds it.
 *
 * Return: as __register_chrdev(): the major for a dynamic request, 0 for a fixed one, or a
 * negative errno.
 */
int cdev_compat_redirect_register(unsigned int major, unsigned int baseminor,
				  unsigned int count, const char *name,
				  const struct file_operations *fops,
				  struct module *owner)
{
	struct cdev_compat_redirect *rd;
	dev_t first;
	int ret;

	rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return -ENOMEM;

	mutex_lock(&cdev_compat_redirect_lock);
	ret = cdev_compat_claim_range(&first, major, baseminor, count, name);
	if (ret)
		goto err_unlock;

	ret = -ENOMEM;
	rd->cdev = cdev_alloc();
	if (!rd->cdev)
		goto err_region;
	rd->cdev->owner = owner;
	rd->cdev->ops = fops;
	kobject_set_name(&rd->cdev->kobj, "%s", name);
	rd->first = first;
	rd->major = MAJOR(first);
	rd->baseminor = baseminor;
	rd->count = count;
	list_add(&rd->node, &cdev_compat_redirects);

	ret = cdev_add(rd->cdev, first, count);
	if (ret)
		goto err_cdev;
	mutex_unlock(&cdev_compat_redirect_lock);
	return major ? 0 : rd->major;

err_cdev:
	list_del(&rd->node);
	kobject_put(&rd->cdev->kobj);
err_region:
	unregister_chrdev_region(first, count);
err_unlock:
	mutex_unlock(&cdev_compat_redirect_lock);
	kfree(rd);
	return ret;
}

/**
 * cdev_compat_redirect_unregister() - __unregister_chrdev() for a redirected registration
 * @major: major
 * @baseminor: first minor
 * @count: number of minors
 * @name: name (unused, as in the kernel)
 *
 * Removes the registration of exactly this range made by any file of the module: the cdev
 * (freed by its kobject after the last close), then the device numbers. A range the
 * module did not register through cdev-compat gets a warning and goes to the kernel's own
 * __unregister_chrdev(), which is right for a range the kernel's register_chrdev() made.
 */
void cdev_compat_redirect_unregister(unsigned int major, unsigned int baseminor,
				     unsigned int count, const char *name)
{
	struct cdev_compat_redirect *rd, *found = NULL;

	mutex_lock(&cdev_compat_redirect_lock);
	list_for_each_entry(rd, &cdev_compat_redirects, node) {
		if (rd->major == major && rd->baseminor == baseminor &&
		    rd->count == count) {
			found = rd;
			break;
		}
	}
	if (found) {
		list_del(&found->node);
		cdev_del(found->cdev);
		unregister_chrdev_region(found->first, found->count);
	}
	mutex_unlock(&cdev_compat_redirect_lock);
	if (!found) {
		pr_warn("cdev_compat: unregister of %u:%u+%u, which this module did not register through cdev-compat: passed to the kernel\n",
			major, baseminor, count);
		cdev_compat_kernel_unregister_chrdev(major, baseminor, count, name);
		return;
	}
	kfree(found);
}

/**
 * cdev_compat_redirect_serves() - whether an open device is a redirected registration
 * @inode: inode of the device file
 *
 * Return: true when @inode's cdev was registered by this module through the redirect.
 */
bool cdev_compat_redirect_serves(const struct inode *inode)
{
	struct cdev_compat_redirect *rd;
	bool found = false;

	mutex_lock(&cdev_compat_redirect_lock);
	list_for_each_entry(rd, &cdev_compat_redirects, node) {
		if (rd->cdev == inode->i_cdev) {
			found = true;
			break;
		}
	}
	mutex_unlock(&cdev_compat_redirect_lock);
	return found;
}

#endif /* CDEV_COMPAT_DEFINE_H */
