/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_redirect.h - an unmodified driver's register_chrdev() served by cdev regions.
 *
 * With CDEV_COMPAT_REDIRECT := y in the module's Kbuild (before the fragment's include line),
 * register_chrdev(), __register_chrdev(), unregister_chrdev() and __unregister_chrdev() in
 * every file of the module become calls to cdev_compat_redirect_register() and
 * cdev_compat_redirect_unregister(). The mode is module-wide because it changes what the
 * calls mean: a file that sets or unsets it alone is a build error (cdev_compat_unregister.h).
 *
 * Each registration behaves as the kernel's own __register_chrdev(): the range must fit in
 * one major, with the kernel's checks and messages; the cdev comes from cdev_alloc() and the
 * kernel frees it after the last close, never cdev-compat; its owner is fops->owner. An
 * unregister that matches none of the module's registrations is ignored with a message: the
 * kernel's __unregister_chrdev() would free another module's numbers and leave its cdev
 * mapped. A module in redirect mode that wants a registration served by the kernel itself
 * calls cdev_compat_kernel_register_chrdev(), which records it, so its unregister_chrdev()
 * finds it and passes it on to the kernel.
 *
 * The registrations are kept in one list per module (in the file that defines
 * CDEV_COMPAT_DEFINE_HELPERS), so a module may register in one file and unregister in
 * another.
 */
#ifndef CDEV_COMPAT_REDIRECT_H
#define CDEV_COMPAT_REDIRECT_H

#include <linux/fs.h>
#include <cdev_compat_unregister.h>

int cdev_compat_redirect_register(unsigned int major, unsigned int baseminor,
				  unsigned int count, const char *name,
				  const struct file_operations *fops);
void cdev_compat_redirect_unregister(unsigned int major, unsigned int baseminor,
				     unsigned int count, const char *name);
bool cdev_compat_redirect_serves(const struct inode *inode);
int cdev_compat_kernel_register_chrdev(unsigned int major, unsigned int baseminor,
				       unsigned int count, const char *name,
				       const struct file_operations *fops);

#ifdef CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV

/**
 * cdev_compat_redirect_unregister_chrdev_1() - redirected unregister_chrdev(major)
 * @major: major
 */
static inline void cdev_compat_redirect_unregister_chrdev_1(unsigned int major)
{
	cdev_compat_redirect_unregister(major, 0, 256, NULL);
}

/**
 * cdev_compat_redirect_unregister_chrdev_2() - redirected unregister_chrdev(major, name)
 * @major: major
 * @name: name (evaluated once, unused)
 */
static inline void cdev_compat_redirect_unregister_chrdev_2(unsigned int major,
							    const char *name)
{
	cdev_compat_redirect_unregister(major, 0, 256, name);
}

/**
 * cdev_compat_redirect___unregister_chrdev_3() - redirected 3-argument __unregister_chrdev()
 * @major: major
 * @baseminor: first minor
 * @count: number of minors
 */
static inline void cdev_compat_redirect___unregister_chrdev_3(unsigned int major,
							      unsigned int baseminor,
							      unsigned int count)
{
	cdev_compat_redirect_unregister(major, baseminor, count, NULL);
}

/**
 * cdev_compat_redirect___unregister_chrdev_4() - redirected 4-argument __unregister_chrdev()
 * @major: major
 * @baseminor: first minor
 * @count: number of minors
 * @name: name (evaluated once, unused)
 */
static inline void cdev_compat_redirect___unregister_chrdev_4(unsigned int major,
							      unsigned int baseminor,
							      unsigned int count,
							      const char *name)
{
	cdev_compat_redirect_unregister(major, baseminor, count, name);
}

#define register_chrdev(major, name, fops)				\
	cdev_compat_redirect_register(major, 0, 256, name, fops)
#define __register_chrdev(major, baseminor, count, name, fops)		\
	cdev_compat_redirect_register(major, baseminor, count, name, fops)

#endif /* CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV */
#endif /* CDEV_COMPAT_REDIRECT_H */
