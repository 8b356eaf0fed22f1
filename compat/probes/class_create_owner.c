// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: class_create() is built on __class_create(owner, name, key), and no class_create()
 * function exists.
 *
 * Detects: the form before commit 1aaba11da9aa ("driver core: class: remove module * from
 * class_create()"), which removed __class_create() in v6.4: a class_create(owner, name)
 * macro over __class_create(), or the one-argument macro over it that the backports project
 * (and vendor kernels that backport 6.4's spelling that way) define, version unchanged.
 * First mainline version: 2.6.13; last: 6.3.
 *
 * The spelling of the macro does not matter: __class_create() is called directly. The
 * parenthesised declaration below is not macro-expanded; it conflicts with a real
 * class_create() function, so a kernel that has both (a function backport that kept
 * __class_create()) gets exactly one verdict, class_create_function.c's.
 *
 * Set: class_create
 * Defines: CDEV_COMPAT_CLASS_CREATE_HAS_OWNER 1
 */
#include <linux/device.h>
#include <linux/module.h>

struct class *(class_create)(struct module *owner, const char *name, int not_a_function);

struct class *cdev_compat_probe(void);
struct class *cdev_compat_probe(void)
{
	static struct lock_class_key key;

	return __class_create(THIS_MODULE, "cdev_compat_probe", &key);
}
