/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_class.h - class_create(owner, name) and class_create(name) on every kernel.
 *
 * Commit 1aaba11da9aa ("driver core: class: remove module * from class_create()") dropped
 * the owner argument in 6.4 and made class_create() a function. Kernels meet it in three
 * shapes, all with an unchanged version number where it was backported:
 *
 *  - a class_create(owner, name) macro over __class_create() (before 6.4);
 *  - a class_create(name) macro over __class_create() (the backports project's
 *    backport-include/linux/device/class.h, and vendor kernels that backport 6.4's
 *    spelling that way);
 *  - a class_create(name) function (6.4 and later, and RHEL 9's backport).
 *
 * The feature probes look at what is underneath, not at the spelling: whether a real
 * class_create(const char *) function exists (CDEV_COMPAT_CLASS_CREATE_HAS_OWNER 0), or only
 * __class_create(owner, name, key) (1). class_create() then becomes a macro that counts its
 * arguments and calls that, whatever macro the kernel or a backport defined before:
 *
 *  - __class_create() kernels: as the kernel's own macro, with a lockdep key per call site;
 *    the one-argument spelling passes THIS_MODULE;
 *  - function kernels: class_create(name); the owner of the two-argument spelling is
 *    evaluated once and dropped, as 6.4 does.
 *
 * The helpers are defined once (guarded); the class_create() macro itself is defined again,
 * after an #undef, each time this file is read: the wrappers <linux/device/class.h> and
 * <linux/device.h> in compat/wrap/ read it after the kernel's header in a force-included
 * build, so it is the last definition even when a backports include directory is searched
 * before compat/wrap/ and redefines class_create() on its way out. <cdev_compat.h> reads it
 * after <linux/device.h>. Macros only, and no includes of kernel headers (it is read in the
 * middle of <linux/device.h>): nothing here is emitted into a module that does not call
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

#endif /* CDEV_COMPAT_CLASS_H */

/* Outside the guard: whatever class_create() macro came before, this one is the last. */
#undef class_create
#define class_create(...)						\
	CDEV_COMPAT_CAT(cdev_compat_class_create_,			\
			CDEV_COMPAT_NARGS(__VA_ARGS__))(__VA_ARGS__)
