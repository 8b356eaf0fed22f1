/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_region.h - register_chrdev() as the cdev interface does it, on a handle.
 *
 * The legacy one-call registration (major 0 = dynamic, a name, fops) on
 * register_chrdev_region()/alloc_chrdev_region() + a cdev per registration + cdev_add(): any
 * minor count,
 * minors above 255, ranges that spill into the next major, the owner set from the calling
 * module, cdev_add() as the last step, and an unregister that needs the handle only (no name
 * to pass back, so none to diverge). The bodies are in cdev_compat_define.h, defined once
 * per module (see <cdev_compat.h>).
 */
#ifndef CDEV_COMPAT_REGION_H
#define CDEV_COMPAT_REGION_H

#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/kobject.h>
#include <linux/module.h>

struct cdev_compat_region;

/**
 * struct cdev_compat_cdev - the cdev of one registration of a region
 * @cdev: a cdev as cdev_alloc() makes it: freed by the kernel's own release after the last
 *	close, which then drops @cdev.kobj.parent (the owning module's kobject, or the region's
 *	@parent)
 * @region: the region it was registered for, for cdev_compat_region_of()
 *
 * Each registration gets its own, so registering a region again never touches memory that an
 * open file of an earlier registration still uses (the kernel's __register_chrdev() does the
 * same).
 */
struct cdev_compat_cdev {
	struct cdev cdev;
	struct cdev_compat_region *region;
};

/**
 * struct cdev_compat_region - a range of char device numbers and its cdev
 * @cdev: the cdev of the current registration (a struct cdev_compat_cdev's), NULL when not
 *	registered; embed the whole region in the driver's own struct and get back to it from
 *	inode->i_cdev with cdev_compat_from_inode()
 * @first: first device number of the range
 * @count: number of device numbers; 0 when not registered
 * @name: name shown in /proc/devices (the caller's string; it must outlive the region)
 * @parent: optional kobject that owns the memory of the region; set it before registering
 *	when the region is freed at run time, maybe while a file is open (see below)
 * @class: class of the device nodes, or NULL when there are none
 * @mode: permissions of the device nodes (0 keeps devtmpfs' default, 0600)
 * @nodes: number of device nodes created
 * @devs: the device nodes, for a teardown that does not search the class for each
 * @remove_nodes: set by cdev_compat_create_nodes(); cdev_compat_unregister() calls it
 *
 * Zero it before use (static storage or kzalloc()). The handle is all that
 * cdev_compat_unregister() needs, and it can be registered again after that at once, also
 * while a file of the earlier registration is still open: that file keeps the earlier cdev
 * and file operations until its last close, as after the kernel's unregister_chrdev().
 *
 * Lifetime (docs/lifetimes.md has the whole table). Every registration's cdev is freed by
 * the kernel after its last close, never by cdev-compat. It holds the owning module's
 * kobject, which unloading waits for, so a region in static storage or one freed in module
 * exit needs nothing more: no file can be open in module exit (an open file holds the
 * module), and no release touches the region. A region freed earlier, at run time, must be
 * embedded in an object with a kobject, given as @parent: each cdev then holds that object
 * instead, until its last close, and the object is freed by its own release(). Such a
 * region is registered once: a registration holds @parent until its last close.
 */
struct cdev_compat_region {
	struct cdev *cdev;
	dev_t first;
	unsigned int count;
	const char *name;
	struct kobject *parent;
	struct class *class;
	umode_t mode;
	unsigned int nodes;
	struct device **devs;
	void (*remove_nodes)(struct cdev_compat_region *r);
};

/*
 * The largest major the kernel registers: __register_chrdev_region() refuses majors from
 * CHRDEV_MAJOR_MAX (512 since 4.14) on.
 */
#ifdef CHRDEV_MAJOR_MAX
#define CDEV_COMPAT_MAJOR_MAX	CHRDEV_MAJOR_MAX
#else
#define CDEV_COMPAT_MAJOR_MAX	512
#endif

int cdev_compat_check_range(const char *name, unsigned int major,
			    unsigned int baseminor, unsigned int count);
int __cdev_compat_register(struct cdev_compat_region *r, unsigned int major,
			   unsigned int baseminor, unsigned int count,
			   const char *name, const struct file_operations *fops,
			   struct module *owner);
int __cdev_compat_register_chrdev(struct cdev_compat_region *r,
				  unsigned int major, const char *name,
				  const struct file_operations *fops,
				  struct module *owner);
void cdev_compat_unregister(struct cdev_compat_region *r);

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
 * cdev_compat_major() - the major of a registered region
 * @r: the region
 *
 * Return: the major number, the allocated one for a dynamic request.
 */
static inline unsigned int cdev_compat_major(const struct cdev_compat_region *r)
{
	return MAJOR(r->first);
}

/**
 * cdev_compat_region_of() - the region that serves an open device
 * @inode: inode of the device file, as passed to open()
 *
 * Also right for a file of an earlier registration of the region, whose cdev is no longer
 * the region's current one.
 *
 * Return: the region @inode->i_cdev was registered for.
 */
static inline struct cdev_compat_region *cdev_compat_region_of(struct inode *inode)
{
	return container_of(inode->i_cdev, struct cdev_compat_cdev, cdev)->region;
}

/**
 * cdev_compat_index() - position of an open device within its region
 * @inode: inode of the device file
 *
 * Counts across a major boundary, so it stays right for ranges that spill into the next
 * major; no minor-number arithmetic in the driver. It counts from the first device number of
 * the registration the file was opened through (the cdev's own), so it stays right for a
 * file that outlives its registration.
 *
 * Return: 0 for the registration's first device number, up to its count - 1.
 */
static inline unsigned int cdev_compat_index(struct inode *inode)
{
	return inode->i_rdev - inode->i_cdev->dev;
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

#endif /* CDEV_COMPAT_REGION_H */
