// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: pde_data() can be called (a function, an inline or a macro).
 *
 * Detects: 5.17 and later ("proc: remove PDE_DATA() completely").
 *
 * Set: pde_data
 * Defines: CDEV_COMPAT_HAVE_PDE_DATA 1
 */
#include <linux/proc_fs.h>

void *cdev_compat_probe(const struct inode *inode);
void *cdev_compat_probe(const struct inode *inode)
{
	return pde_data(inode);
}
