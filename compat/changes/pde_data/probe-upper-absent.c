// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: PDE_DATA is neither a macro nor declared.
 *
 * Set: PDE_DATA
 * Defines: CDEV_COMPAT_HAVE_PDE_DATA_UPPER 0
 */
#include <linux/proc_fs.h>

#ifdef PDE_DATA
#error "PDE_DATA is a macro"
#endif
int PDE_DATA;
