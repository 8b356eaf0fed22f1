/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat.h - build a char driver on both sides of the unregister_chrdev() change, and
 * move it onto the cdev interface.
 *
 * Include it, or force-include it through compat/cdev-compat.mk (CDEV_COMPAT_FORCE_INCLUDE=y)
 * into a driver that changes no line. It gives:
 *
 *  - unregister_chrdev(major) and unregister_chrdev(major, name), __unregister_chrdev() with
 *    3 or 4 arguments, on a kernel whose unregister_chrdev() takes one argument and on one
 *    whose takes two (see cdev_compat_unregister.h), with an int 0 result for legacy code;
 *  - register_chrdev-as-cdev helpers: cdev_compat_register(), cdev_compat_register_chrdev(),
 *    cdev_compat_unregister(), cdev_compat_create_nodes(), cdev_compat_from_inode();
 *  - with CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV defined before the include, an unmodified
 *    driver's register_chrdev()/unregister_chrdev() go through the cdev helpers.
 *
 * Which kernel it is comes from feature probes run against the target kernel
 * (<cdev_compat_probes.h>), never from its version number.
 *
 * When force-included, this file is read before any of the driver's lines, where pulling
 * in <linux/fs.h> (and so printk.h's default pr_fmt) would clash with the driver's own
 * pr_fmt. The Kbuild fragment then puts compat/wrap/ first on the include path; its
 * <linux/fs.h> includes the kernel's and then the compat macros, so the first pass here
 * does nothing. A later explicit #include <cdev_compat.h> gets everything.
 */
#if !defined(CDEV_COMPAT_EARLY_PASS) && !defined(_LINUX_FS_H) && \
	__has_include("cdev_compat_wrap.h")
#define CDEV_COMPAT_EARLY_PASS
#elif !defined(CDEV_COMPAT_H)
#define CDEV_COMPAT_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <cdev_compat_probes.h>
#include <cdev_compat_unregister.h>

/**
 * struct cdev_compat_region - a range of char device numbers served by one cdev
 * @cdev: the cdev; embed the whole region in the driver's own struct and get back to it
 *	from inode->i_cdev with cdev_compat_from_inode()
 * @first: first device number of the range
 * @count: number of device numbers; 0 when not registered
 * @name: name shown in /proc/devices (the caller's string; it must outlive the region)
 * @class: class of the device nodes, or NULL when there are none
 * @mode: permissions of the device nodes (0 keeps devtmpfs' default, 0600)
 * @nodes: number of device nodes created
 * @parent: optional kobject that owns the memory of the region; set it before registering
 *	when the region is freed at run time (see below)
 *
 * Zero it before use (static storage or kzalloc()). The handle is all that
 * cdev_compat_unregister() needs: there is no name to pass back and so none to diverge.
 *
 * Lifetime: an open file keeps using the cdev after cdev_compat_unregister() until its last
 * close. A region in static storage, or freed in module exit (the owner reference keeps the
 * module while files are open), needs nothing more. A region freed earlier must be embedded
 * in an object with a kobject, given as @parent: the cdev then holds a reference to it
 * (cdev_set_parent()) until the last close, and the object is freed in its release().
 */
struct cdev_compat_region {
	struct cdev cdev;
	dev_t first;
	unsigned int count;
	const char *name;
	struct class *class;
	umode_t mode;
	unsigned int nodes;
	struct kobject *parent;
};

/* Largest major and minor a dev_t can hold; MKDEV() silently truncates beyond them. */
#define CDEV_COMPAT_MAJOR_LIMIT	((1U << (32 - MINORBITS)) - 1)

/**
 * cdev_compat_check_range() - validate a requested range before touching the kernel
 * @name: name of the range, for the message
 * @major: major number, 0 for a dynamic one
 * @baseminor: first minor number
 * @count: number of minors
 *
 * The kernel's register_chrdev_region() returns 0 and registers nothing for a zero count
 * or a range that wraps past the last dev_t, and MKDEV() truncates an oversized major or
 * minor into a different device number; so these are refused here, with a message.
 *
 * Return: 0, or -EINVAL.
 */
static inline int cdev_compat_check_range(const char *name, unsigned int major,
					  unsigned int baseminor,
					  unsigned int count)
{
	if (!count) {
		pr_err("cdev_compat: \"%s\": minor count is 0\n", name);
		return -EINVAL;
	}
	if (major > CDEV_COMPAT_MAJOR_LIMIT) {
		pr_err("cdev_compat: \"%s\": major %u is beyond the largest major %u\n",
		       name, major, CDEV_COMPAT_MAJOR_LIMIT);
		return -EINVAL;
	}
	if (baseminor > MINORMASK) {
		pr_err("cdev_compat: \"%s\": base minor %u is beyond the largest minor %u\n",
		       name, baseminor, MINORMASK);
		return -EINVAL;
	}
	if (count - 1 > U32_MAX - (u32)MKDEV(major, baseminor)) {
		pr_err("cdev_compat: \"%s\": %u minors from %u:%u run past the last device number\n",
		       name, count, major, baseminor);
		return -EINVAL;
	}
	return 0;
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
 *
 * Return: 0 with @r->first set, or -EINVAL (zero count, out-of-range major, minor or
 * range), -EBUSY (the range clashes with a registered one), -ENOMEM.
 */
static inline int __cdev_compat_register(struct cdev_compat_region *r,
					 unsigned int major,
					 unsigned int baseminor,
					 unsigned int count, const char *name,
					 const struct file_operations *fops,
					 struct module *owner)
{
	dev_t first = MKDEV(major, baseminor);
	int ret;

	ret = cdev_compat_check_range(name, major, baseminor, count);
	if (ret)
		return ret;

	if (major)
		ret = register_chrdev_region(first, count, name);
	else
		ret = alloc_chrdev_region(&first, baseminor, count, name);
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
 * cdev_compat_register() - register a range of device numbers and its cdev
 * @r: zeroed region handle
 * @major: major number, or 0 for a dynamic one
 * @baseminor: first minor number
 * @count: number of minors
 * @name: name for /proc/devices
 * @fops: file operations
 *
 * __cdev_compat_register() with the calling module as the owner, so that the module
 * cannot be unloaded while one of its devices is open.
 */
#define cdev_compat_register(r, major, baseminor, count, name, fops)	\
	__cdev_compat_register(r, major, baseminor, count, name, fops, THIS_MODULE)

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
static inline int __cdev_compat_register_chrdev(struct cdev_compat_region *r,
						unsigned int major,
						const char *name,
						const struct file_operations *fops,
						struct module *owner)
{
	int ret = __cdev_compat_register(r, major, 0, 256, name, fops, owner);

	if (ret)
		return ret;
	return major ? 0 : MAJOR(r->first);
}

/**
 * cdev_compat_register_chrdev() - register_chrdev() in the shape drivers know, on cdev
 * @r: zeroed region handle
 * @major: major number, or 0 for a dynamic one
 * @name: name for /proc/devices
 * @fops: file operations
 *
 * __cdev_compat_register_chrdev() with the calling module as the owner.
 */
#define cdev_compat_register_chrdev(r, major, name, fops)		\
	__cdev_compat_register_chrdev(r, major, name, fops, THIS_MODULE)

/**
 * cdev_compat_remove_nodes() - remove the device nodes of a region
 * @r: region whose nodes cdev_compat_create_nodes() made
 *
 * Safe to call when there are none.
 */
static inline void cdev_compat_remove_nodes(struct cdev_compat_region *r)
{
	if (!r->class)
		return;
	while (r->nodes)
		device_destroy(r->class, r->first + --r->nodes);
	class_destroy(r->class);
	r->class = NULL;
}

/**
 * cdev_compat_unregister() - remove a region registered by cdev_compat_register()
 * @r: the handle given to the register call; nothing else is needed
 *
 * Removes the device nodes, then the cdev (no new opens), then the device numbers. Calling
 * it for a region that is not registered does nothing.
 */
static inline void cdev_compat_unregister(struct cdev_compat_region *r)
{
	if (!r->count)
		return;
	cdev_compat_remove_nodes(r);
	cdev_del(&r->cdev);
	unregister_chrdev_region(r->first, r->count);
	r->count = 0;
}

/**
 * cdev_compat_devnode() - class devnode callback that applies the region's node mode
 * @dev: a device made by cdev_compat_create_nodes(); its drvdata is the region
 * @mode: where devtmpfs takes the mode from
 *
 * Typed for the target kernel: the argument became const in 6.2.
 *
 * Return: NULL, keeping the device's own name.
 */
#if CDEV_COMPAT_DEVNODE_CONST_DEVICE
static inline char *cdev_compat_devnode(const struct device *dev, umode_t *mode)
#else
static inline char *cdev_compat_devnode(struct device *dev, umode_t *mode)
#endif
{
	const struct cdev_compat_region *r = dev_get_drvdata(dev);

	if (mode && r && r->mode)
		*mode = r->mode;
	return NULL;
}

/**
 * cdev_compat_class_create() - class_create() on both sides of its 6.4 change
 * @name: class name, unique in the system
 *
 * Return: the class, or an ERR_PTR().
 */
static inline struct class *cdev_compat_class_create(const char *name)
{
#if CDEV_COMPAT_CLASS_CREATE_HAS_OWNER
	return class_create(THIS_MODULE, name);
#else
	return class_create(name);
#endif
}

/**
 * cdev_compat_create_nodes() - create a class and one device node per device number
 * @r: a registered region
 * @class_name: name of the class to create, or NULL to use the region's name
 * @mode: node permissions, e.g. 0666; 0 keeps the default
 * @fmt: printf format of the node names with one unsigned int conversion, which gets the
 *	minor counted from the region's first minor (it goes on counting past 255 and past a
 *	major boundary, so names stay unique), e.g. "mydev%u"
 *
 * Call it after the register call: the devices are live then, so userspace that reacts to
 * the new nodes can open them. Hides the class_create() and devnode signature changes.
 * On failure every node made so far and the class are removed; the region stays
 * registered.
 *
 * Return: 0, or a negative errno.
 */
static inline int cdev_compat_create_nodes(struct cdev_compat_region *r,
					   const char *class_name, umode_t mode,
					   const char *fmt)
{
	struct class *cls;
	struct device *dev;

	if (!r->count || r->class)
		return -EINVAL;
	cls = cdev_compat_class_create(class_name ? class_name : r->name);
	if (IS_ERR(cls))
		return PTR_ERR(cls);
	cls->devnode = cdev_compat_devnode;
	r->class = cls;
	r->mode = mode;
	for (r->nodes = 0; r->nodes < r->count; r->nodes++) {
		dev = device_create(cls, NULL, r->first + r->nodes, r, fmt,
				    MINOR(r->first) + r->nodes);
		if (IS_ERR(dev)) {
			cdev_compat_remove_nodes(r);
			return PTR_ERR(dev);
		}
	}
	return 0;
}

/**
 * cdev_compat_region_of() - the region that serves an open device
 * @inode: inode of the device file, as passed to open()
 *
 * Return: the region whose cdev is @inode->i_cdev.
 */
static inline struct cdev_compat_region *cdev_compat_region_of(struct inode *inode)
{
	return container_of(inode->i_cdev, struct cdev_compat_region, cdev);
}

/**
 * cdev_compat_index() - position of an open device within its region
 * @inode: inode of the device file
 *
 * Counts across a major boundary, so it stays right for ranges that spill into the next
 * major; no minor-number arithmetic in the driver.
 *
 * Return: 0 for the region's first device number, up to count - 1.
 */
static inline unsigned int cdev_compat_index(struct inode *inode)
{
	return inode->i_rdev - cdev_compat_region_of(inode)->first;
}

/**
 * cdev_compat_from_inode() - the driver's struct that embeds the region of an open device
 * @inode: inode of the device file
 * @type: the driver's struct type
 * @member: name of the struct cdev_compat_region member in @type
 *
 * The inode->i_cdev step of the cdev interface, done with container_of().
 */
#define cdev_compat_from_inode(inode, type, member)			\
	container_of(cdev_compat_region_of(inode), type, member)

#ifdef CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV
/*
 * Redirect mode: an unmodified driver's register_chrdev(), __register_chrdev(),
 * unregister_chrdev() and __unregister_chrdev() are served by cdev regions. The handles
 * live in a list private to each source file, so a driver must register and unregister a
 * major from the same file, as legacy drivers do; an unregister that finds no handle goes
 * to the kernel's own function.
 */

/**
 * struct cdev_compat_redirect - a register_chrdev() registration served by a cdev region
 * @node: entry in this source file's list
 * @major: major as the driver knows it (the allocated one for a dynamic request)
 * @baseminor: first minor
 * @count: number of minors
 * @region: the cdev region
 */
struct cdev_compat_redirect {
	struct list_head node;
	unsigned int major;
	unsigned int baseminor;
	unsigned int count;
	struct cdev_compat_region region;
};

static LIST_HEAD(cdev_compat_redirects);
static DEFINE_MUTEX(cdev_compat_redirect_lock);

/**
 * cdev_compat_redirect_register() - __register_chrdev() served by a cdev region
 * @major: major, or 0 for a dynamic one
 * @baseminor: first minor
 * @count: number of minors
 * @name: name for /proc/devices
 * @fops: file operations
 * @owner: owning module (THIS_MODULE of the caller)
 *
 * Return: as __register_chrdev(): the major for a dynamic request, 0 for a fixed one, or a
 * negative errno.
 */
static inline int cdev_compat_redirect_register(unsigned int major,
						unsigned int baseminor,
						unsigned int count,
						const char *name,
						const struct file_operations *fops,
						struct module *owner)
{
	struct cdev_compat_redirect *rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	int ret;

	if (!rd)
		return -ENOMEM;
	ret = __cdev_compat_register(&rd->region, major, baseminor, count, name,
				     fops, owner);
	if (ret) {
		kfree(rd);
		return ret;
	}
	rd->major = MAJOR(rd->region.first);
	rd->baseminor = baseminor;
	rd->count = count;
	mutex_lock(&cdev_compat_redirect_lock);
	list_add(&rd->node, &cdev_compat_redirects);
	mutex_unlock(&cdev_compat_redirect_lock);
	return major ? 0 : rd->major;
}

/**
 * cdev_compat_redirect_unregister() - __unregister_chrdev() for a redirected registration
 * @major: major
 * @baseminor: first minor
 * @count: number of minors
 * @name: name (unused, as in the kernel)
 *
 * Removes the cdev region registered for exactly this range, or calls the kernel's
 * __unregister_chrdev() when this file registered no such range.
 *
 * Return: 0.
 */
static inline int cdev_compat_redirect_unregister(unsigned int major,
						  unsigned int baseminor,
						  unsigned int count,
						  const char *name)
{
	struct cdev_compat_redirect *rd, *found = NULL;

	mutex_lock(&cdev_compat_redirect_lock);
	list_for_each_entry(rd, &cdev_compat_redirects, node) {
		if (rd->major == major && rd->baseminor == baseminor &&
		    rd->count == count) {
			list_del(&rd->node);
			found = rd;
			break;
		}
	}
	mutex_unlock(&cdev_compat_redirect_lock);
	if (!found) {
		cdev_compat_kernel_unregister_chrdev(major, baseminor, count, name);
		return 0;
	}
	cdev_compat_unregister(&found->region);
	kfree(found);
	return 0;
}

/**
 * cdev_compat_redirect_unregister_chrdev_1() - redirected unregister_chrdev(major)
 * @major: major
 *
 * Return: 0.
 */
static inline int cdev_compat_redirect_unregister_chrdev_1(unsigned int major)
{
	return cdev_compat_redirect_unregister(major, 0, 256, NULL);
}

/**
 * cdev_compat_redirect_unregister_chrdev_2() - redirected unregister_chrdev(major, name)
 * @major: major
 * @name: name (evaluated once, unused)
 *
 * Return: 0.
 */
static inline int cdev_compat_redirect_unregister_chrdev_2(unsigned int major,
							   const char *name)
{
	return cdev_compat_redirect_unregister(major, 0, 256, name);
}

/**
 * cdev_compat_redirect___unregister_chrdev_3() - redirected 3-argument __unregister_chrdev()
 * @major: major
 * @baseminor: first minor
 * @count: number of minors
 *
 * Return: 0.
 */
static inline int cdev_compat_redirect___unregister_chrdev_3(unsigned int major,
							     unsigned int baseminor,
							     unsigned int count)
{
	return cdev_compat_redirect_unregister(major, baseminor, count, NULL);
}

/**
 * cdev_compat_redirect___unregister_chrdev_4() - redirected 4-argument __unregister_chrdev()
 * @major: major
 * @baseminor: first minor
 * @count: number of minors
 * @name: name (evaluated once, unused)
 *
 * Return: 0.
 */
static inline int cdev_compat_redirect___unregister_chrdev_4(unsigned int major,
							     unsigned int baseminor,
							     unsigned int count,
							     const char *name)
{
	return cdev_compat_redirect_unregister(major, baseminor, count, name);
}

#define register_chrdev(major, name, fops)				\
	cdev_compat_redirect_register(major, 0, 256, name, fops, THIS_MODULE)
#define __register_chrdev(major, baseminor, count, name, fops)		\
	cdev_compat_redirect_register(major, baseminor, count, name, fops, \
				      THIS_MODULE)
#endif /* CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV */

#endif /* CDEV_COMPAT_H */
