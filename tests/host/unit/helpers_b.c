// SPDX-License-Identifier: GPL-2.0-only
/*
 * The second file of the two-file module in helpers_test.c: a legacy driver's other
 * translation unit in redirect mode (module-wide, from the command line), without
 * CDEV_COMPAT_DEFINE_HELPERS. It registers and unregisters through the same per-module list
 * as the first file.
 */
#include <linux/fs.h>
#include <cdev_compat.h>

#include "helpers_b.h"

int b_register(unsigned int major, const struct file_operations *fops)
{
	return register_chrdev(major, "b_dev", fops);
}

int b_register_range(unsigned int major, unsigned int baseminor, unsigned int count,
		     const struct file_operations *fops)
{
	return __register_chrdev(major, baseminor, count, "b_range", fops);
}

void b_unregister(unsigned int major)
{
	return unregister_chrdev(major, "b_dev");
}
