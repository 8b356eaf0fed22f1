/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/proc_fs.h> for pde_data (force-included builds): see ../../compat.h. */
#include_next <linux/proc_fs.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <pde_data/compat.h>
#endif
