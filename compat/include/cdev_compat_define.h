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

#include <linux/build_bug.h>
#include <linux/cdev.h>
#include <linux/kobject.h>
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
 * cdev_compat_module_kobj() - the kobject a cdev of @owner holds until its release has run
 * @owner: the cdev's owning module, or NULL
 *
 * free_module() waits for the last reference to the module's own kobject, so a cdev that
 * holds it as its parent keeps the module's memory until the kernel has released the cdev
 * (with CONFIG_DEBUG_KOBJECT_RELEASE, seconds after the last put). The reference is dropped
 * by the kernel's own cdev release, never by module code.
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

/*
 * The kobj_type that cdev_alloc() gives its cdevs, taken from one such cdev: its release is
 * the kernel's own for a cdev of its own memory (fs/char_dev.c, cdev_dynamic_release()), which
 * unmaps the inodes, frees the cdev with kfree() and then drops the parent reference.
 */
static typeof(((struct kobject *)NULL)->ktype) cdev_compat_cdev_ktype;
static DEFINE_MUTEX(cdev_compat_cdev_ktype_lock);

/**
 * cdev_compat_cdev_new() - a cdev for one registration of a region, as cdev_alloc() makes one
 * @region: the region it serves
 * @owner: module that owns @fops (the cdev's owner: an open file holds it)
 * @fops: file operations
 * @name: name of the cdev's kobject (the region's name)
 * @parent: what the cdev holds from cdev_add() until the kernel has released it
 *
 * Allocated with kzalloc() and set up as cdev_alloc() sets up its own, with the same
 * kobj_type, so the kernel frees it with kfree() after the last close and then drops @parent,
 * in its own code: no cdev-compat code runs when a registration's cdev goes, and nothing of
 * it outlives the cdev. The cdev's first member is its struct cdev, so the pointer the
 * kernel frees is the allocation's.
 *
 * Return: the new cdev (one reference, the registration's), or NULL without memory.
 */
static struct cdev_compat_cdev *cdev_compat_cdev_new(struct cdev_compat_region *region,
						     struct module *owner,
						     const struct file_operations *fops,
						     const char *name,
						     struct kobject *parent)
{
	struct cdev_compat_cdev *c;
	struct cdev *probe;

	BUILD_BUG_ON(offsetof(struct cdev_compat_cdev, cdev) != 0);
	mutex_lock(&cdev_compat_cdev_ktype_lock);
	if (!cdev_compat_cdev_ktype) {
		probe = cdev_alloc();
		if (probe) {
			cdev_compat_cdev_ktype = probe->kobj.ktype;
			kobject_put(&probe->kobj);
		}
	}
	mutex_unlock(&cdev_compat_cdev_ktype_lock);
	if (!cdev_compat_cdev_ktype)
		return NULL;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	INIT_LIST_HEAD(&c->cdev.list);
	kobject_init(&c->cdev.kobj, cdev_compat_cdev_ktype);
	c->cdev.owner = owner;
	c->cdev.ops = fops;
	c->region = region;
	/* As __register_chrdev(): the name is for messages only, so its failure is not one. */
	kobject_set_name(&c->cdev.kobj, "%s", name);
	if (parent)
		cdev_set_parent(&c->cdev, parent);
	return c;
}

/**
 * cdev_compat_cdev_put_unadded() - drop a cdev whose cdev_add() failed or never ran
 * @cdev: a cdev from cdev_compat_cdev_new() or cdev_alloc(), holding its one reference
 *
 * cdev_add() takes the parent reference only when it succeeds, and the cdev's release drops
 * it whatever happened: a cdev that was never added is dropped without its parent, so that
 * its release (the kernel's, which frees it) drops nothing it did not take.
 */
static void cdev_compat_cdev_put_unadded(struct cdev *cdev)
{
	cdev->kobj.parent = NULL;
	kobject_put(&cdev->kobj);
}

/**
 * __cdev_compat_register() - register a range of device numbers and its cdev
 * @r: region handle, zeroed before its first use, owned by the caller
 * @major: major number, or 0 for a dynamically allocated one
 * @baseminor: first minor number; may be above 255
 * @count: number of minors; may be above 256, and with a fixed major the range may spill
 *	into the following majors
 * @name: name for /proc/devices; kept by pointer
 * @fops: file operations of every device in the range
 * @owner: module that owns @fops; cdev_compat_register() passes THIS_MODULE
 *
 * The steps of the cdev interface in order: register_chrdev_region() or
 * alloc_chrdev_region(), a new cdev with the file operations and the owner, and cdev_add()
 * last, because the devices are live as soon as it returns. The cdev is this registration's
 * own (cdev_compat_cdev_new()): its parent, which it holds until the kernel has released it,
 * is @r->parent when set, otherwise the owning module's kobject, so unloading the module waits
 * for it. Any failure undoes what was done and leaves @r as it was, ready to be registered
 * again.
 *
 * A region that is registered is refused. One that was unregistered registers again at once,
 * also while a file of the earlier registration is open: that file keeps the earlier cdev.
 *
 * Return: 0 with @r->first set, or -EINVAL (zero count, out-of-range major, minor or
 * range), -EBUSY (the range clashes with a registered one, or @r is registered), -ENOMEM.
 */
int __cdev_compat_register(struct cdev_compat_region *r, unsigned int major,
			   unsigned int baseminor, unsigned int count,
			   const char *name, const struct file_operations *fops,
			   struct module *owner)
{
	struct cdev_compat_cdev *c;
	dev_t first;
	int ret;

	if (r->count) {
		pr_err("cdev_compat: \"%s\": the region handle is still registered\n", name);
		return -EBUSY;
	}
	ret = cdev_compat_claim_range(&first, major, baseminor, count, name);
	if (ret)
		return ret;

	c = cdev_compat_cdev_new(r, owner, fops, name,
				 r->parent ?: cdev_compat_module_kobj(owner));
	if (!c) {
		ret = -ENOMEM;
		goto err_region;
	}
	/* The file operations may read them as soon as the device is live. */
	r->cdev = &c->cdev;
	r->first = first;
	r->count = count;
	r->name = name;

	ret = cdev_add(&c->cdev, first, count);
	if (ret)
		goto err_cdev;
	return 0;

err_cdev:
	r->cdev = NULL;
	r->count = 0;
	cdev_compat_cdev_put_unadded(&c->cdev);
err_region:
	unregister_chrdev_region(first, count);
	return ret;
}

/**
 * __cdev_compat_register_chrdev() - register_chrdev() in the shape drivers know, on cdev
 * @r: region handle
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
 * device numbers and the cdev (no new opens through the device numbers). Files still open
 * keep the cdev until their last close; the kernel frees it then. Calling it for a region
 * that is not registered does nothing.
 *
 * @r is read before cdev_del() and never after: with @r->parent set, cdev_del() may drop the
 * last reference to the object that embeds @r. Without it, the caller may free @r when this
 * returns and no file is open (module exit): nothing the kernel does later reads it.
 */
void cdev_compat_unregister(struct cdev_compat_region *r)
{
	struct cdev *cdev = r->cdev;
	dev_t first = r->first;
	unsigned int count = r->count;

	if (!count)
		return;
	if (r->remove_nodes)
		r->remove_nodes(r);
	r->count = 0;
	r->cdev = NULL;
	unregister_chrdev_region(first, count);
	cdev_del(cdev);
}

/**
 * struct cdev_compat_redirect - a register_chrdev() registration served by cdev-compat
 * @node: entry in the module's list
 * @cdev: from cdev_alloc(), freed by the kernel after the last close; NULL for a registration
 *	the kernel's own __register_chrdev() made (cdev_compat_kernel_register_chrdev(), or a
 *	count of 0), which the kernel's __unregister_chrdev() undoes
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
 * cdev_compat_redirect_numbers() - register the device numbers as __register_chrdev() does
 * @first: where the first device number goes
 * @major: major, or 0 for a dynamic one
 * @baseminor: first minor
 * @count: number of minors, at least 1
 * @name: name for /proc/devices
 *
 * With the checks and messages of the kernel's __register_chrdev_region(), in its order: a
 * major from CHRDEV_MAJOR_MAX on, then a range that does not fit in one major, are -EINVAL
 * with the kernel's own message; a clash is -EBUSY without one, as there. One check the
 * kernel lacks, on purpose: a base minor beyond the last minor is -EINVAL (the kernel
 * registers it and then maps the device numbers of another major).
 *
 * Return: 0 with *@first set, or a negative errno.
 */
static int cdev_compat_redirect_numbers(dev_t *first, unsigned int major,
					unsigned int baseminor, unsigned int count,
					const char *name)
{
	if (major >= CDEV_COMPAT_MAJOR_MAX) {
		pr_err("CHRDEV \"%s\" major requested (%u) is greater than the maximum (%u)\n",
		       name, major, CDEV_COMPAT_MAJOR_MAX - 1);
		return -EINVAL;
	}
	if (baseminor > MINORMASK) {
		pr_err("cdev_compat: \"%s\": base minor %u is beyond the largest minor %u\n",
		       name, baseminor, MINORMASK);
		return -EINVAL;
	}
	if (count > MINORMASK + 1 - baseminor) {
		pr_err("CHRDEV \"%s\" minor range requested (%u-%u) is out of range of maximum range (%u-%u) for a single major\n",
		       name, baseminor, baseminor + count - 1, 0, MINORMASK);
		return -EINVAL;
	}
	*first = MKDEV(major, baseminor);
	if (major)
		return register_chrdev_region(*first, count, name);
	return alloc_chrdev_region(first, baseminor, count, name);
}

/**
 * cdev_compat_redirect_add() - put a registration on the module's list
 * @first: its first device number
 * @baseminor: first minor
 * @count: number of minors
 * @cdev: its cdev, or NULL when the kernel's own __register_chrdev() serves it
 *
 * Called with the list's lock held.
 *
 * Return: 0, or -ENOMEM.
 */
static int cdev_compat_redirect_add(dev_t first, unsigned int baseminor, unsigned int count,
				    struct cdev *cdev)
{
	struct cdev_compat_redirect *rd = kzalloc(sizeof(*rd), GFP_KERNEL);

	if (!rd)
		return -ENOMEM;
	rd->cdev = cdev;
	rd->first = first;
	rd->major = MAJOR(first);
	rd->baseminor = baseminor;
	rd->count = count;
	list_add(&rd->node, &cdev_compat_redirects);
	return 0;
}

/**
 * cdev_compat_kernel_register_chrdev() - the kernel's own __register_chrdev(), on the list
 * @major: major, or 0 for a dynamic one
 * @baseminor: first minor
 * @count: number of minors
 * @name: name for /proc/devices
 * @fops: file operations
 *
 * For a module in redirect mode that wants the kernel to serve a registration itself: the
 * kernel's __register_chrdev() registers it, and the module's list records it, so that the
 * module's unregister_chrdev() (any spelling) finds it and passes it on to the kernel's
 * __unregister_chrdev(). Redirect mode serves a count of 0 this way too: nothing can be opened
 * then, and the kernel registers an empty range that only it can.
 *
 * Return: as __register_chrdev().
 */
int cdev_compat_kernel_register_chrdev(unsigned int major, unsigned int baseminor,
				       unsigned int count, const char *name,
				       const struct file_operations *fops)
{
	unsigned int got;
	int ret;

	mutex_lock(&cdev_compat_redirect_lock);
	ret = (__register_chrdev)(major, baseminor, count, name, fops);
	got = major ? major : (unsigned int)ret;
	if (ret >= 0 && cdev_compat_redirect_add(MKDEV(got, baseminor), baseminor, count, NULL)) {
		cdev_compat_kernel_unregister_chrdev(got, baseminor, count, name);
		ret = -ENOMEM;
	}
	mutex_unlock(&cdev_compat_redirect_lock);
	return ret;
}

/**
 * cdev_compat_redirect_register() - __register_chrdev() served by a cdev
 * @major: major, or 0 for a dynamic one
 * @baseminor: first minor
 * @count: number of minors; the range must fit in one major
 * @name: name for /proc/devices
 * @fops: file operations; @fops->owner owns the cdev, as in the kernel
 *
 * As the kernel's __register_chrdev(): the range is checked and registered with its
 * messages, a cdev from cdev_alloc() gets @fops, its owner and its name, and is added last.
 * The registration is on the module's list, under its lock, before the device is live, so
 * an unregister that runs as soon as the device is live finds it. A count of 0 goes to the
 * kernel's own __register_chrdev() (cdev_compat_kernel_register_chrdev()).
 *
 * One difference, on purpose: the cdev of an owned @fops holds its owner's kobject until the
 * kernel has released it, so the module is not freed while an inode still points at the
 * cdev (the kernel clears inode->i_cdev in that release, which CONFIG_DEBUG_KOBJECT_RELEASE
 * delays; an open through such an inode would take a reference on the unloaded module). An
 * owner-less @fops has no module to hold, as in the kernel.
 *
 * Return: as __register_chrdev(): the major for a dynamic request, 0 for a fixed one, or a
 * negative errno.
 */
int cdev_compat_redirect_register(unsigned int major, unsigned int baseminor,
				  unsigned int count, const char *name,
				  const struct file_operations *fops)
{
	struct cdev_compat_redirect *rd;
	struct kobject *parent;
	struct cdev *cdev;
	dev_t first;
	int ret;

	if (!count)
		return cdev_compat_kernel_register_chrdev(major, baseminor, 0, name, fops);

	mutex_lock(&cdev_compat_redirect_lock);
	ret = cdev_compat_redirect_numbers(&first, major, baseminor, count, name);
	if (ret)
		goto err_unlock;

	ret = -ENOMEM;
	cdev = cdev_alloc();
	if (!cdev)
		goto err_region;
	cdev->owner = fops->owner;
	cdev->ops = fops;
	kobject_set_name(&cdev->kobj, "%s", name);
	parent = cdev_compat_module_kobj(fops->owner);
	if (parent)
		cdev_set_parent(cdev, parent);
	ret = cdev_compat_redirect_add(first, baseminor, count, cdev);
	if (ret)
		goto err_cdev;
	rd = list_first_entry(&cdev_compat_redirects, struct cdev_compat_redirect, node);

	ret = cdev_add(cdev, first, count);
	if (ret)
		goto err_list;
	/* Read under the lock: once it is dropped, an unregister may free @rd. */
	ret = major ? 0 : rd->major;
	mutex_unlock(&cdev_compat_redirect_lock);
	return ret;

err_list:
	list_del(&rd->node);
	kfree(rd);
err_cdev:
	cdev_compat_cdev_put_unadded(cdev);
err_region:
	unregister_chrdev_region(first, count);
err_unlock:
	mutex_unlock(&cdev_compat_redirect_lock);
	return ret;
}

/**
 * cdev_compat_redirect_unregister() - __unregister_chrdev() for a redirected registration
 * @major: major
 * @baseminor: first minor
 * @count: number of minors
 * @name: name (unused, as in the kernel)
 *
 * Removes the registration of exactly this range that any file of the module made, in the
 * kernel's order: the device numbers, then the cdev (freed by the kernel after the last
 * close); one the kernel's own __register_chrdev() made goes to its __unregister_chrdev().
 *
 * A range this module did not register is left alone, with a message: the kernel's
 * __unregister_chrdev() would free another module's device numbers and leave its cdev
 * mapped (a later user of the major would then be freed twice). Each module unregisters
 * what it registered.
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
		if (found->cdev) {
			unregister_chrdev_region(found->first, found->count);
			cdev_del(found->cdev);
		} else {
			cdev_compat_kernel_unregister_chrdev(major, baseminor, count, name);
		}
	}
	mutex_unlock(&cdev_compat_redirect_lock);
	if (!found) {
		pr_warn("cdev_compat: %s: unregister of major %u, minors %u+%u, ignored: this module registered no such range (in redirect mode a module unregisters only what it registered)\n",
			KBUILD_MODNAME, major, baseminor, count);
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
		if (rd->cdev && rd->cdev == inode->i_cdev) {
			found = true;
			break;
		}
	}
	mutex_unlock(&cdev_compat_redirect_lock);
	return found;
}

#endif /* CDEV_COMPAT_DEFINE_H */
