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

#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
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
 * below CHRDEV_MAJOR_MAX, which the kernel requires. A fixed major may spill into the next
 * majors, as register_chrdev_region() allows (cdev_compat_claim_range() refuses that where
 * the kernel's __register_chrdev() does).
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
 * @one_major: refuse a range that does not fit in one major, as __register_chrdev() does
 *
 * cdev_compat_check_range(), then register_chrdev_region() for a fixed @major or
 * alloc_chrdev_region() for a dynamic one.
 *
 * Return: 0 with *@first set, or a negative errno.
 */
static int cdev_compat_claim_range(dev_t *first, unsigned int major,
				   unsigned int baseminor, unsigned int count,
				   const char *name, bool one_major)
{
	int ret = cdev_compat_check_range(name, major, baseminor, count);

	if (ret)
		return ret;
	if (one_major && count > MINORMASK + 1 - baseminor) {
		pr_err("cdev_compat: \"%s\": %u minors from minor %u do not fit in one major, as register_chrdev() needs\n",
		       name, count, baseminor);
		return -EINVAL;
	}
	*first = MKDEV(major, baseminor);
	if (major)
		return register_chrdev_region(*first, count, name);
	return alloc_chrdev_region(first, baseminor, count, name);
}

/**
 * cdev_compat_release_done() - wait until a released cdev's kobject release has run
 * @cdev: a cdev of a region that is not registered and that no file holds
 *
 * A cdev's kobject release (cdev_default_release()) runs inside its last kobject_put(), so
 * once the reference count is 0 it has run, except with CONFIG_DEBUG_KOBJECT_RELEASE, which
 * runs it from a delayed work 1 to 4 seconds later: that work lives in the cdev and would
 * run on the memory after cdev_init() cleared it for a new registration (purging the new
 * registration's inodes, dropping a parent reference it never took). Wait for it there.
 * Nothing is pending for a cdev that was never initialized or whose cdev_add() failed
 * (__cdev_compat_register() clears those).
 */
static void cdev_compat_release_done(struct cdev *cdev)
{
#ifdef CONFIG_DEBUG_KOBJECT_RELEASE
	/* The work is set up by the last put; cdev_init() clears it. */
	if (!kref_read(&cdev->kobj.kref) && cdev->kobj.release.work.func)
		flush_delayed_work(&cdev->kobj.release);
#else
	(void)cdev;
#endif
}

/**
 * cdev_compat_module_kobj() - the kobject a cdev of @owner holds until its release has run
 * @owner: the cdev's owning module, or NULL
 *
 * free_module() waits for the last reference to the module's own kobject, so a cdev that
 * holds it as its parent keeps the module's memory until the cdev's release has run (with
 * CONFIG_DEBUG_KOBJECT_RELEASE, seconds after the last put).
 *
 * Return: @owner's kobject, or NULL for built-in code or a kernel without sysfs.
 */
static struct kobject *cdev_compat_module_kobj(struct module *owner)
{
#ifdef CONFIG_SYSFS
	if (owner)
		return &owner->mkobj.kobj;
#endif
	return NULL;
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
 * alloc_chrdev_region(), cdev_init(), set the owner and the parent, and cdev_add() last,
 * because the devices are live as soon as it returns. Any failure undoes what was done and
 * leaves @r as it was, ready to be registered again.
 *
 * The parent is @r->parent when set; otherwise the owning module's own kobject, so that
 * unloading the module waits until the cdev's kobject release has run (free_module() waits
 * for the last reference to that kobject). With CONFIG_DEBUG_KOBJECT_RELEASE the release
 * runs seconds after the last close, from memory that may be the module's own (a region in
 * static storage); without it, it runs inside the last close.
 *
 * A region that is still registered, or whose cdev an open file still holds after
 * cdev_compat_unregister(), is refused: cdev_init() would wipe a cdev in use. A region whose
 * release is still pending is waited for (cdev_compat_release_done()).
 *
 * Return: 0 with @r->first set, or -EINVAL (zero count, out-of-range major, minor or
 * range), -EBUSY (the range clashes with a registered one, or @r is still in use), -ENOMEM.
 */
int __cdev_compat_register(struct cdev_compat_region *r, unsigned int major,
			   unsigned int baseminor, unsigned int count,
			   const char *name, const struct file_operations *fops,
			   struct module *owner)
{
	struct kobject *parent = r->parent ?: cdev_compat_module_kobj(owner);
	dev_t first;
	int ret;

	if (r->count || kref_read(&r->cdev.kobj.kref)) {
		pr_err("cdev_compat: \"%s\": the region handle is still %s\n", name,
		       r->count ? "registered" : "in use by an open file");
		return -EBUSY;
	}
	cdev_compat_release_done(&r->cdev);
	ret = cdev_compat_claim_range(&first, major, baseminor, count, name, false);
	if (ret)
		return ret;

	cdev_init(&r->cdev, fops);
	r->cdev.owner = owner;
	if (parent)
		cdev_set_parent(&r->cdev, parent);
	/* The file operations may read them as soon as the device is live. */
	r->first = first;
	r->count = count;
	r->name = name;

	ret = cdev_add(&r->cdev, first, count);
	if (ret)
		goto err_cdev;
	return 0;

err_cdev:
	r->count = 0;
	/*
	 * The cdev was never live and took no parent reference: clearing it undoes
	 * cdev_init() without a release (which would drop that parent reference, and with
	 * CONFIG_DEBUG_KOBJECT_RELEASE stay pending in @r).
	 */
	memset(&r->cdev, 0, sizeof(r->cdev));
	unregister_chrdev_region(first, count);
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
 * Removes the device nodes, then, in the order of the kernel's __unregister_chrdev(), the
 * device numbers and the cdev (no new opens). Files still open keep the cdev until their
 * last close. Calling it for a region that is not registered does nothing.
 *
 * With @r->parent set, cdev_del() may drop the last reference to the object that embeds @r,
 * so @r is read before it and never after. Without it, the caller owns @r's memory and may
 * free it once this returns and no file is open (module exit): if no file holds the cdev,
 * its release has run when this returns, also with CONFIG_DEBUG_KOBJECT_RELEASE.
 */
void cdev_compat_unregister(struct cdev_compat_region *r)
{
	dev_t first = r->first;
	unsigned int count = r->count;
	bool owned_by_parent = r->parent;

	if (!count)
		return;
	if (r->remove_nodes)
		r->remove_nodes(r);
	r->count = 0;
	unregister_chrdev_region(first, count);
	cdev_del(&r->cdev);
	if (!owned_by_parent)
		cdev_compat_release_done(&r->cdev);
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
 * @count: number of minors; the range must fit in one major
 * @name: name for /proc/devices
 * @fops: file operations; @fops->owner owns the cdev, as in the kernel
 *
 * As the kernel's __register_chrdev(): the range is checked and registered, a cdev from
 * cdev_alloc() gets @fops, its owner and its name, and is added last. The registration is
 * on the module's list, under its lock, before the device is live, so an unregister that
 * runs as soon as the device is live finds it. One difference, on purpose: the cdev holds
 * the owner's kobject until its release has run, so the module is not freed while an inode
 * still points at the cdev (the kernel clears inode->i_cdev in that release, which
 * CONFIG_DEBUG_KOBJECT_RELEASE delays; an open through such an inode would take a reference
 * on the unloaded module).
 *
 * Return: as __register_chrdev(): the major for a dynamic request, 0 for a fixed one, or a
 * negative errno.
 */
int cdev_compat_redirect_register(unsigned int major, unsigned int baseminor,
				  unsigned int count, const char *name,
				  const struct file_operations *fops)
{
	struct cdev_compat_redirect *rd;
	dev_t first;
	int ret;

	rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return -ENOMEM;

	mutex_lock(&cdev_compat_redirect_lock);
	ret = cdev_compat_claim_range(&first, major, baseminor, count, name, true);
	if (ret)
		goto err_unlock;

	ret = -ENOMEM;
	rd->cdev = cdev_alloc();
	if (!rd->cdev)
		goto err_region;
	rd->cdev->owner = fops->owner;
	rd->cdev->ops = fops;
	kobject_set_name(&rd->cdev->kobj, "%s", name);
	/* Unloading the owner waits for the cdev's release. */
	cdev_set_parent(rd->cdev, cdev_compat_module_kobj(fops->owner));
	rd->first = first;
	rd->major = MAJOR(first);
	rd->baseminor = baseminor;
	rd->count = count;
	list_add(&rd->node, &cdev_compat_redirects);

	ret = cdev_add(rd->cdev, first, count);
	if (ret)
		goto err_cdev;
	/* Read under the lock: once it is dropped, an unregister may free @rd. */
	ret = major ? 0 : rd->major;
	mutex_unlock(&cdev_compat_redirect_lock);
	return ret;

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
 * Removes the registration of exactly this range made by any file of the module, in the
 * kernel's order: the device numbers, then the cdev (freed by its kobject after the last
 * close). A range the module did not register through cdev-compat goes to the kernel's own
 * __unregister_chrdev(), silently as in the kernel: right for a range the kernel's
 * register_chrdev() made, and a no-op for one nobody registered.
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
		unregister_chrdev_region(found->first, found->count);
		cdev_del(found->cdev);
	}
	mutex_unlock(&cdev_compat_redirect_lock);
	if (!found) {
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
