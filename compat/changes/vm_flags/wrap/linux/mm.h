/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/mm.h> for the vm_flags helpers (force-included builds): see ../../compat.h. */
#include_next <linux/mm.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <vm_flags/compat.h>
#endif
