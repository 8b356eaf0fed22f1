// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: unregister_chrdev() takes only the major: unregister_chrdev(major).
 *
 * Detects: the "Drop second arg of unregister_chrdev()" change (Alexey Dobriyan, posted
 * 2006-08-15 against 2.6.18; never merged upstream). Carried by this project's one-arg
 * kernel (kernel/bases/6.1/patches/, Debian 6.1 based), which keeps 6.1's version number.
 * First mainline version: none.
 *
 * Set: unregister_chrdev
 * Defines: CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS 1
 */
#include <linux/fs.h>

void cdev_compat_probe(void);
void cdev_compat_probe(void)
{
	unregister_chrdev(0U);
}
