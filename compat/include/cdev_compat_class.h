/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_class.h - class_create(owner, name) and class_create(name) on every kernel.
 *
 * Commit 1aaba11da9aa ("driver core: class: remove module * from class_create()") dropped
 * the owner argument in 6.4, and some distributions backported that without changing the
 * version number, so a driver's LINUX_VERSION_CODE test can pick the wrong spelling. Here
 * class_create() becomes a macro that counts its arguments and calls the kernel's own
 * function with the arity the feature probes found (CDEV_COMPAT_CLASS_CREATE_HAS_OWNER):
 *
 *  - owner kernels (< 6.4): as the kernel's own macro, __class_create() with a lockdep key
 *    per call site; the one-argument spelling passes THIS_MODULE;
 *  - no-owner kernels: class_create(name); the owner of the two-argument spelling is
 *    evaluated once and dropped, as 6.4 does.
 *
 * Included by <cdev_compat.h>, and by the wrapper <linux/device/class.h> in compat/wrap/
 * right after the kernel's own, in a force-included build; the kernel's class_create() must
 * be declared first. Macros only, and no includes of kernel headers (it is read in the middle
 * of <linux/device.h>): nothing here is emitted into a module that does not call
 * class_create().
 */
#ifndef CDEV_COMPAT_CLASS_H
#define CDEV_COMPAT_CLASS_H

#include <cdev_compat_probes.h>
#include <cdev_compat_args.h>

#ifndef CDEV_COMPAT_CLASS_CREATE_HAS_OWNER
#error "cdev-compat: probe results missing; build with compat/cdev-compat.mk"
#endif

#if CDEV_COMPAT_CLASS_CREATE_HAS_OWNER
#undef class_create
/**
 * cdev_compat_class_create_2() - class_create(owner, name) on the target kernel
 * @owner: module owning the class (THIS_MODULE); evaluated once, and dropped on a kernel
 *	whose class_create() takes no owner
 * @name: class name
 *
 * Return: the class, or an ERR_PTR().
 */
#define cdev_compat_class_create_2(owner, name)				\
({									\
	static struct lock_class_key __key;				\
	__class_create(owner, name, &__key);				\
})
/**
 * cdev_compat_class_create_1() - class_create(name) on the target kernel
 * @name: class name; on a kernel whose class_create() takes an owner, THIS_MODULE is it
 *
 * Return: the class, or an ERR_PTR().
 */
#define cdev_compat_class_create_1(name)				\
	cdev_compat_class_create_2(THIS_MODULE, name)
#else
#define cdev_compat_class_create_2(owner, name)				\
	({ (void)(owner); (class_create)(name); })
#define cdev_compat_class_create_1(name) ((class_create)(name))
#endif

#define class_create(...)						\
	CDEV_COMPAT_CAT(cdev_compat_class_create_,			\
			CDEV_COMPAT_NARGS(__VA_ARGS__))(__VA_ARGS__)

#endif /* CDEV_COMPAT_CLASS_H */
