// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: PDE_DATA() can be called (a function, an inline or a macro).
 *
 * Detects: before 5.17, where "proc: remove PDE_DATA() completely" renamed it pde_data().
 *
 * Set: PDE_DATA
 * Defines: CDEV_COMPAT_HAVE_PDE_DATA_UPPER 1
 */
#include <linux/proc_fs.h>

void *cdev_compat_probe(const struct inode *inode);
void *cdev_compat_probe(const struct inode *inode)
{
	return PDE_DATA(inode);
}
