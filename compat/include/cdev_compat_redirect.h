/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_redirect.h - an unmodified driver's register_chrdev() served by cdev regions.
 *
 * With CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV defined (on the command line, or before the first
 * include), register_chrdev(), __register_chrdev(), unregister_chrdev() and
 * __unregister_chrdev() in that file become calls to cdev_compat_redirect_register() and
 * cdev_compat_redirect_unregister(). Each registration gets a cdev from cdev_alloc(), owned
 * by the calling module, as the kernel's own __register_chrdev() does, so the cdev is freed
 * by its kobject after the last close, never by hand.
 *
 * The registrations are kept in one list per module (in the file that defines
 * CDEV_COMPAT_DEFINE_HELPERS), so a module may register in one file and unregister in
 * another. An unregister that matches no registration of the module warns and is passed to
 * the kernel's own __unregister_chrdev(), which is right for a range the kernel registered.
 */
#ifndef CDEV_COMPAT_REDIRECT_H
#define CDEV_COMPAT_REDIRECT_H

#include <linux/fs.h>
#include <linux/module.h>
#include <cdev_compat_unregister.h>

int cdev_compat_redirect_register(unsigned int major, unsigned int baseminor,
				  unsigned int count, const char *name,
				  const struct file_operations *fops,
				  struct module *owner);
void cdev_compat_redirect_unregister(unsigned int major, unsigned int baseminor,
				     unsigned int count, const char *name);
bool cdev_compat_redirect_serves(const struct inode *inode);

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
	cdev_compat_redirect_register(major, 0, 256, name, fops, THIS_MODULE)
#define __register_chrdev(major, baseminor, count, name, fops)		\
	cdev_compat_redirect_register(major, baseminor, count, name, fops, \
				      THIS_MODULE)

#endif /* CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV */
#endif /* CDEV_COMPAT_REDIRECT_H */
