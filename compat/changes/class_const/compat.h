/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Class callbacks: parameters that build on every kernel.
 *
 * 6.2 made struct class's devnode() and dev_uevent() take a const struct device *, and 6.4
 * made a class attribute's show() and store() take a const struct class * and a const struct
 * class_attribute *; a callback of the other kind is assigned from an incompatible pointer
 * type, which the kernel's build refuses. No header can change a callback's type, so
 * cdev-compat-migrate --api (class_const.cocci) writes their parameters with these types, const
 * where the kernel's callbacks have it and not where they do not, drops .owner from struct
 * class (6.4 removed it; the kernels before never read it), and gives a static struct class
 * the type cdev_compat_static_class: const only where class_register() takes one.
 */
#ifndef CDEV_COMPAT_CHANGE_CLASS_CONST_H
#define CDEV_COMPAT_CHANGE_CLASS_CONST_H

#include <linux/device.h>
#include <cdev_compat_probes.h>

/* The device of a class's devnode(): cdev_compat_devnode_device *dev. */
#if CDEV_COMPAT_DEVNODE_CONST_DEVICE
typedef const struct device cdev_compat_devnode_device;
#else
typedef struct device cdev_compat_devnode_device;
#endif

/* The device of a class's dev_uevent(): cdev_compat_uevent_device *dev. */
#if CDEV_COMPAT_CLASS_UEVENT_CONST_DEVICE
typedef const struct device cdev_compat_uevent_device;
#else
typedef struct device cdev_compat_uevent_device;
#endif

/*
 * The class and the attribute of a class attribute's show() and store():
 * cdev_compat_attr_class *cls, cdev_compat_class_attribute *attr.
 */
#if CDEV_COMPAT_CLASS_ATTR_SHOW >= 1
typedef const struct class cdev_compat_attr_class;
#else
typedef struct class cdev_compat_attr_class;
#endif
#if CDEV_COMPAT_CLASS_ATTR_SHOW >= 2
typedef const struct class_attribute cdev_compat_class_attribute;
#else
typedef struct class_attribute cdev_compat_class_attribute;
#endif

/*
 * A class defined as a static object, static cdev_compat_static_class my_class = { ... }: const
 * where class_register() takes a const class (6.4 and later), not before, where
 * class_register() writes into it.
 */
#if CDEV_COMPAT_CLASS_REGISTER_CONST
typedef const struct class cdev_compat_static_class;
#else
typedef struct class cdev_compat_static_class;
#endif

#endif /* CDEV_COMPAT_CHANGE_CLASS_CONST_H */
