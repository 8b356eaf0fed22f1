// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: __unregister_chrdev() takes (major, baseminor, count, name).
 *
 * Detects: the upstream commit "chrdev: implement __register_chrdev()" (Tejun Heo), which
 * added the ranged __register_chrdev()/__unregister_chrdev() pair, both taking a name.
 * First mainline version: 2.6.32 (still current).
 *
 * Set: __unregister_chrdev
 * Defines: CDEV_COMPAT___UNREGISTER_CHRDEV_ARGS 4
 */
#include <linux/fs.h>

void cdev_compat_probe(void);
void cdev_compat_probe(void)
{
	__unregister_chrdev(0U, 0U, 1U, "cdev_compat_probe");
}
