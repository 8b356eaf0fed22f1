/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_unregister.h - both spellings of unregister_chrdev() on both kinds of kernel.
 *
 * Included by <cdev_compat.h>, and by the wrapper <linux/fs.h> in compat/wrap/ right after
 * the kernel's own <linux/fs.h>, so that a force-included build gets these macros at the
 * point where the kernel's definitions exist, after the driver's own pr_fmt. Needs only
 * <linux/fs.h> and the probe results. In redirect mode (CDEV_COMPAT_REDIRECT := y in the
 * module's Kbuild, which defines CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV for every file of the
 * module) the macros call the redirect functions instead.
 *
 * unregister_chrdev() and __unregister_chrdev() become macros that count their arguments
 * and call a correctly typed static inline function, which calls the kernel's real function
 * with the arity the feature probes found. Each argument is evaluated exactly once (it is a
 * function argument).
 *
 * The result is void, exactly like the kernel's own declaration since 2.6.23, so
 * "return unregister_chrdev(major, name);" in a void function keeps building. Code written
 * for the int result of older kernels ("if (unregister_chrdev(...) < 0)") opts in with
 * CDEV_COMPAT_UNREGISTER_RETURNS_INT defined before the first include (e.g. ccflags-y +=
 * -DCDEV_COMPAT_UNREGISTER_RETURNS_INT); the result is then an int 0.
 */
/*
 * Redirect mode changes what unregister_chrdev() means, so it is set once for the whole
 * module, by the fragment (CDEV_COMPAT_REDIRECT := y defines both macros below for every file,
 * subdirectories included). A file that turns it on or off for itself alone would register
 * through one path and unregister through the other: the kernel would free the numbers and
 * not the cdev, and an open after unloading would fault. Checked at every inclusion, so a
 * file that defines the switch after its first include is caught too.
 */
#if defined(CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV) != defined(CDEV_COMPAT_REDIRECT_MODULE_WIDE)
#error "cdev-compat: redirect mode set or unset in this file only; set CDEV_COMPAT_REDIRECT := y in the module's Kbuild (every file of a module must agree) and do not define CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV in a source file or in CFLAGS_<file>.o"
#endif

#ifndef CDEV_COMPAT_UNREGISTER_H
#define CDEV_COMPAT_UNREGISTER_H

#include <linux/fs.h>
#include <cdev_compat_args.h>
#include <cdev_compat_probes.h>

#if !defined(CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS) || !defined(CDEV_COMPAT___UNREGISTER_CHRDEV_ARGS)
#error "cdev-compat: probe results missing; build with compat/cdev-compat.mk"
#endif

/**
 * cdev_compat_kernel_unregister_chrdev() - the kernel's own __unregister_chrdev()
 * @major: major number
 * @baseminor: first minor number
 * @count: number of minors
 * @name: the name given at registration; the kernel never reads it (fs/char_dev.c), and a
 *	one-arg kernel does not take it
 *
 * The parenthesised name calls the function, not the compat macro of the same name.
 */
static inline void cdev_compat_kernel_unregister_chrdev(unsigned int major,
							 unsigned int baseminor,
							 unsigned int count,
							 const char *name)
{
#if CDEV_COMPAT___UNREGISTER_CHRDEV_ARGS == 3
	(void)name;
	(__unregister_chrdev)(major, baseminor, count);
#else
	(__unregister_chrdev)(major, baseminor, count, name);
#endif
}

/**
 * cdev_compat_unregister_chrdev_1() - unregister_chrdev(major)
 * @major: major number given to or returned by register_chrdev()
 *
 * Calls the kernel's unregister_chrdev() with the arity it has (the name is NULL on a
 * two-arg kernel, which ignores it).
 */
static inline void cdev_compat_unregister_chrdev_1(unsigned int major)
{
#if CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS == 1
	(unregister_chrdev)(major);
#else
	(unregister_chrdev)(major, NULL);
#endif
}

/**
 * cdev_compat_unregister_chrdev_2() - unregister_chrdev(major, name)
 * @major: major number given to or returned by register_chrdev()
 * @name: the name given at registration (evaluated once, then unused on a one-arg kernel)
 */
static inline void cdev_compat_unregister_chrdev_2(unsigned int major,
						  const char *name)
{
#if CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS == 1
	(void)name;
	(unregister_chrdev)(major);
#else
	(unregister_chrdev)(major, name);
#endif
}

/**
 * cdev_compat___unregister_chrdev_3() - __unregister_chrdev(major, baseminor, count)
 * @major: major number
 * @baseminor: first minor number
 * @count: number of minors
 */
static inline void cdev_compat___unregister_chrdev_3(unsigned int major,
						    unsigned int baseminor,
						    unsigned int count)
{
	cdev_compat_kernel_unregister_chrdev(major, baseminor, count, NULL);
}

/**
 * cdev_compat___unregister_chrdev_4() - __unregister_chrdev(major, baseminor, count, name)
 * @major: major number
 * @baseminor: first minor number
 * @count: number of minors
 * @name: the name given at registration (evaluated once)
 */
static inline void cdev_compat___unregister_chrdev_4(unsigned int major,
						    unsigned int baseminor,
						    unsigned int count,
						    const char *name)
{
	cdev_compat_kernel_unregister_chrdev(major, baseminor, count, name);
}

#ifndef CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV
#define CDEV_COMPAT_UNREGISTER_PREFIX cdev_compat_
#else
/* Redirect mode: cdev_compat_redirect.h defines cdev_compat_redirect_*(). */
#define CDEV_COMPAT_UNREGISTER_PREFIX cdev_compat_redirect_
#endif

#define CDEV_COMPAT_UNREGISTER_CALL(fn, ...)				\
	CDEV_COMPAT_CAT(CDEV_COMPAT_CAT(CDEV_COMPAT_UNREGISTER_PREFIX, fn),	\
			CDEV_COMPAT_NARGS(__VA_ARGS__))(__VA_ARGS__)

#ifdef CDEV_COMPAT_UNREGISTER_RETURNS_INT
/* Opt-in: the int 0 result of pre-2.6.23 kernels, for code that tests it. */
#define unregister_chrdev(...)						\
	({ CDEV_COMPAT_UNREGISTER_CALL(unregister_chrdev_, __VA_ARGS__); 0; })
#define __unregister_chrdev(...)					\
	({ CDEV_COMPAT_UNREGISTER_CALL(__unregister_chrdev_, __VA_ARGS__); 0; })
#else
#define unregister_chrdev(...)						\
	CDEV_COMPAT_UNREGISTER_CALL(unregister_chrdev_, __VA_ARGS__)
#define __unregister_chrdev(...)					\
	CDEV_COMPAT_UNREGISTER_CALL(__unregister_chrdev_, __VA_ARGS__)
#endif

#endif /* CDEV_COMPAT_UNREGISTER_H */
