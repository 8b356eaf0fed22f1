/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vm_flags_set(), vm_flags_clear(), vm_flags_mod() and vm_flags_reset() on every kernel.
 *
 * 6.3 made vma->vm_flags read-only and added these helpers; a write to it cannot be made to
 * build there by a header, so cdev-compat-migrate --api rewrites the writes into these calls
 * (compat/changes/vm_flags/vm_flags.cocci), as the kernel's own treewide change did, and here
 * kernels before 6.3 get the helpers as static inline functions that write the field. They
 * take the mmap lock no more than the writes they replace did.
 */
#ifndef CDEV_COMPAT_CHANGE_VM_FLAGS_H
#define CDEV_COMPAT_CHANGE_VM_FLAGS_H

#include <linux/mm.h>
#include <cdev_compat_probes.h>

#if !CDEV_COMPAT_HAVE_VM_FLAGS_SET && !defined(vm_flags_set)
/**
 * vm_flags_set() - set flags of a VMA, as 6.3 does it
 * @vma: the VMA
 * @flags: the flags to set
 */
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

/**
 * vm_flags_clear() - clear flags of a VMA, as 6.3 does it
 * @vma: the VMA
 * @flags: the flags to clear
 */
static inline void vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}

/**
 * vm_flags_mod() - set some flags of a VMA and clear others, as 6.3 does it
 * @vma: the VMA
 * @set: the flags to set
 * @clear: the flags to clear
 */
static inline void vm_flags_mod(struct vm_area_struct *vma, vm_flags_t set,
				vm_flags_t clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}

/**
 * vm_flags_reset() - replace the flags of a VMA, as 6.3 does it
 * @vma: the VMA
 * @flags: its new flags
 */
static inline void vm_flags_reset(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags = flags;
}
#endif

#endif /* CDEV_COMPAT_CHANGE_VM_FLAGS_H */
