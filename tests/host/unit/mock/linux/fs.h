/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for the kernel's <linux/fs.h>, as much as cdev_compat_unregister.h
 * uses: __unregister_chrdev() and unregister_chrdev() with the arity MOCK_ARGS selects
 * (1: the one-arg kernel, 2: the two-arg kernel). Calls are recorded for the test.
 */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H
#include <stddef.h>

struct mock_call {
	int calls;
	unsigned int major, baseminor, count;
	const char *name;
};
extern struct mock_call mock_last;

#if MOCK_ARGS == 1
void __unregister_chrdev(unsigned int major, unsigned int baseminor,
			 unsigned int count);
static inline void unregister_chrdev(unsigned int major)
{
	__unregister_chrdev(major, 0, 256);
}
#else
void __unregister_chrdev(unsigned int major, unsigned int baseminor,
			 unsigned int count, const char *name);
static inline void unregister_chrdev(unsigned int major, const char *name)
{
	__unregister_chrdev(major, 0, 256, name);
}
#endif
#endif
