// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: pde_data is neither a macro nor declared.
 *
 * Set: pde_data
 * Defines: CDEV_COMPAT_HAVE_PDE_DATA 0
 */
#include <linux/proc_fs.h>

#ifdef pde_data
#error "pde_data is a macro"
#endif
int pde_data;
