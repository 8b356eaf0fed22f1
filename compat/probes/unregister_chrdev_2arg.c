// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: unregister_chrdev() takes the major and the (unused) name:
 * unregister_chrdev(major, name).
 *
 * Detects: the signature every mainline kernel has had since 2.6.0. The void return came
 * with commit e53252d97e67 ("unregister_chrdev() return void", v2.6.23); the name was
 * already unchecked in 2006 (see the seed article).
 * First mainline version: 2.6.0 (still current).
 *
 * Set: unregister_chrdev
 * Defines: CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS 2
 */
#include <linux/fs.h>

void cdev_compat_probe(void);
void cdev_compat_probe(void)
{
	unregister_chrdev(0U, "cdev_compat_probe");
}
