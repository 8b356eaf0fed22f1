// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_flags corpus, new spelling: a driver that maps a page of its own into userspace,
 * read-only, and sets and clears them with vm_flags_set() and vm_flags_clear(), as from 6.3 on. The test: a read-only mapping of the device shows the page's pattern,
 * and a writable one is refused.
 */
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "cc_corpus.h"

static unsigned long cc_page;

static int cc_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_end - vma->vm_start != PAGE_SIZE || vma->vm_pgoff)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	vm_flags_clear(vma, VM_MAYWRITE);
	return remap_pfn_range(vma, vma->vm_start, virt_to_phys((void *)cc_page) >> PAGE_SHIFT,
			       PAGE_SIZE, vma->vm_page_prot);
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.mmap = cc_mmap,
};

CC_MISC(cc_fops);

static int __init cc_init(void)
{
	int ret;

	cc_page = get_zeroed_page(GFP_KERNEL);
	if (!cc_page)
		return -ENOMEM;
	memset((void *)cc_page, 0xcc, PAGE_SIZE);
	ret = misc_register(&cc_misc);
	if (ret)
		free_page(cc_page);
	return ret;
}

static void __exit cc_exit(void)
{
	misc_deregister(&cc_misc);
	free_page(cc_page);
}

module_init(cc_init);
module_exit(cc_exit);
MODULE_DESCRIPTION("cdev-compat API change corpus: vm_flags, new spelling");
MODULE_LICENSE("GPL");
