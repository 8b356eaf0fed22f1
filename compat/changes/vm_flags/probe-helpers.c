// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: vm_flags_set() and its siblings can be called.
 *
 * Detects: 6.3 ("mm: introduce vma->vm_flags wrapper functions"), which also made
 * vma->vm_flags read-only: only these helpers write it.
 *
 * Set: vm_flags
 * Defines: CDEV_COMPAT_HAVE_VM_FLAGS_SET 1
 */
#include <linux/mm.h>

void cdev_compat_probe(struct vm_area_struct *vma);
void cdev_compat_probe(struct vm_area_struct *vma)
{
	vm_flags_set(vma, VM_IO);
	vm_flags_clear(vma, VM_MAYWRITE);
}
