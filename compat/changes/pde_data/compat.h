/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pde_data(): PDE_DATA(inode) and pde_data(inode) on every kernel.
 *
 * 5.17 renamed PDE_DATA() to pde_data(). The spelling a kernel lacks becomes a static inline
 * function that calls the one it has, whatever shape that one has (function, inline or macro,
 * as a backport may give it). A function, not a macro: a driver's own "#define pde_data
 * PDE_DATA" after it still builds without a diagnostic; and none is made when the name is a
 * macro already.
 */
#ifndef CDEV_COMPAT_CHANGE_PDE_DATA_H
#define CDEV_COMPAT_CHANGE_PDE_DATA_H

#include <linux/proc_fs.h>
#include <cdev_compat_probes.h>

#if !CDEV_COMPAT_HAVE_PDE_DATA && !defined(pde_data)
/**
 * pde_data() - the data given to proc_create_data() for a /proc file, as 5.17 names it
 * @inode: inode of the /proc file
 *
 * Return: what PDE_DATA(@inode) returns.
 */
static inline void *pde_data(const struct inode *inode)
{
	return PDE_DATA(inode);
}
#endif
#if !CDEV_COMPAT_HAVE_PDE_DATA_UPPER && !defined(PDE_DATA)
/**
 * PDE_DATA() - the data given to proc_create_data() for a /proc file, as before 5.17
 * @inode: inode of the /proc file
 *
 * Return: what pde_data(@inode) returns.
 */
static inline void *PDE_DATA(const struct inode *inode)
{
	return pde_data(inode);
}
#endif

#endif /* CDEV_COMPAT_CHANGE_PDE_DATA_H */
