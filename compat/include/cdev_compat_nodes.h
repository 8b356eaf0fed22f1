/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_nodes.h - a class and one device node per device number of a region.
 *
 * Hides the class_create() (6.4) and class devnode (6.2) signature changes. Unlike the
 * register helpers these are static inline: they call GPL-only driver-core exports
 * (class and device creation), so they are emitted only into a module that calls them, and a
 * module under another license that uses only the register helpers stays loadable.
 */
#ifndef CDEV_COMPAT_NODES_H
#define CDEV_COMPAT_NODES_H

#include <linux/device.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <cdev_compat_class.h>
#include <cdev_compat_probes.h>
#include <cdev_compat_region.h>

/* The most device nodes one region gets: each is a struct device with its sysfs entries. */
#define CDEV_COMPAT_MAX_NODES	4096

/**
 * cdev_compat_remove_nodes() - remove the device nodes and the class of a region
 * @r: region whose nodes cdev_compat_create_nodes() made
 *
 * Each node is removed through the pointer kept when it was made, newest first, so the
 * teardown does not search the class (device_destroy() would, for every node). Safe to call
 * when there are none; cdev_compat_unregister() calls it.
 */
static inline void cdev_compat_remove_nodes(struct cdev_compat_region *r)
{
	if (!r->class)
		return;
	while (r->nodes)
		device_unregister(r->devs[--r->nodes]);
	kvfree(r->devs);
	r->devs = NULL;
	class_destroy(r->class);
	r->class = NULL;
	r->remove_nodes = NULL;
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
 * cdev_compat_create_nodes() - create a class and one device node per device number
 * @r: a registered region
 * @class_name: name of the class to create, or NULL to use the region's name
 * @mode: node permissions, e.g. 0660; 0 keeps the default (0600)
 * @prefix: node name: a region of one minor gets exactly @prefix; a larger one gets
 *	@prefix followed by the minor number, counted on from the region's first minor past
 *	255 and past a major boundary, so names stay unique ("mydev" -> mydev0, mydev1, ...).
 *	It is a plain string, never a format.
 *
 * Call it after the register call: the devices are live then, so userspace that reacts to
 * the new nodes can open them. cdev_compat_unregister() removes the nodes. On failure every
 * node made so far and the class are removed; the region stays registered.
 *
 * Return: 0, -EINVAL (region not registered, nodes already made, no prefix), -E2BIG (more
 * than CDEV_COMPAT_MAX_NODES device numbers), -ENOMEM, or the driver core's error.
 */
static inline int cdev_compat_create_nodes(struct cdev_compat_region *r,
					   const char *class_name, umode_t mode,
					   const char *prefix)
{
	struct class *cls;
	struct device *dev;

	if (!r->count || r->class || !prefix)
		return -EINVAL;
	if (r->count > CDEV_COMPAT_MAX_NODES) {
		pr_err("cdev_compat: \"%s\": %u device nodes asked for, at most %u\n",
		       r->name, r->count, CDEV_COMPAT_MAX_NODES);
		return -E2BIG;
	}
	r->devs = kvcalloc(r->count, sizeof(*r->devs), GFP_KERNEL);
	if (!r->devs)
		return -ENOMEM;
	cls = class_create(class_name ? class_name : r->name);
	if (IS_ERR(cls)) {
		kvfree(r->devs);
		r->devs = NULL;
		return PTR_ERR(cls);
	}
	cls->devnode = cdev_compat_devnode;
	r->class = cls;
	r->mode = mode;
	r->remove_nodes = cdev_compat_remove_nodes;
	for (r->nodes = 0; r->nodes < r->count; r->nodes++) {
		if (r->count == 1)
			dev = device_create(cls, NULL, r->first, r, "%s", prefix);
		else
			dev = device_create(cls, NULL, r->first + r->nodes, r, "%s%u",
					    prefix, MINOR(r->first) + r->nodes);
		if (IS_ERR(dev)) {
			cdev_compat_remove_nodes(r);
			return PTR_ERR(dev);
		}
		r->devs[r->nodes] = dev;
	}
	return 0;
}

#endif /* CDEV_COMPAT_NODES_H */
