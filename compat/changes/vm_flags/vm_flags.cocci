// SPDX-License-Identifier: GPL-2.0-only
/// vma->vm_flags is read-only from 6.3 on: write it through vm_flags_set(),
/// vm_flags_clear() and vm_flags_reset(), as the kernel's own treewide change did
/// ("mm: replace vma->vm_flags direct modifications with modifier calls"). cdev-compat's
/// header gives these helpers to the kernels before 6.3.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch

@@
struct vm_area_struct *vma;
expression E;
@@
- vma->vm_flags |= E;
+ vm_flags_set(vma, E);

@@
struct vm_area_struct *vma;
expression E;
@@
- vma->vm_flags &= ~E;
+ vm_flags_clear(vma, E);

@@
struct vm_area_struct *vma;
expression E;
@@
- vma->vm_flags = E;
+ vm_flags_reset(vma, E);
