// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: __unregister_chrdev() takes (major, baseminor, count), no name.
 *
 * Detects: the one-arg change applied to __unregister_chrdev() by this project's kernel
 * port (kernel/bases/6.1/patches/). Not upstream. First mainline version: none.
 *
 * Set: __unregister_chrdev
 * Defines: CDEV_COMPAT___UNREGISTER_CHRDEV_ARGS 3
 */
#include <linux/fs.h>

void cdev_compat_probe(void);
void cdev_compat_probe(void)
{
	__unregister_chrdev(0U, 0U, 1U);
}
