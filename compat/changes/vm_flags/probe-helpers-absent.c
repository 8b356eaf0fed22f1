// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: vm_flags_set is neither a macro nor declared (before 6.3).
 *
 * Set: vm_flags
 * Defines: CDEV_COMPAT_HAVE_VM_FLAGS_SET 0
 */
#include <linux/mm.h>

#ifdef vm_flags_set
#error "vm_flags_set is a macro"
#endif
int vm_flags_set;
