// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_ptr - a two-file driver whose batch device gets its major through a
 * pointer: corp_ptr_batch_init(&corp_ptr_major) registers *majordev and stores
 * the dynamic major back through it; corp_ptr_batch_cleanup(corp_ptr_major)
 * unregisters it by value, in the other file.
 *
 * Written for the cdev-compat migration corpus (the shape of issue 14,
 * failure 2).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "corp_ptr.h"

static int corp_ptr_major;	/* major number of the batch device */
module_param_named(major, corp_ptr_major, int, 0444);
MODULE_PARM_DESC(major, "major number, 0 for a dynamic one");

static int __init corp_ptr_init(void)
{
	int err;

	err = corp_ptr_batch_init(&corp_ptr_major);
	if (err)
		return err;
	pr_info("batch device on major %d\n", corp_ptr_major);
	return 0;
}

static void __exit corp_ptr_exit(void)
{
	corp_ptr_batch_cleanup(corp_ptr_major);
}

module_init(corp_ptr_init);
module_exit(corp_ptr_exit);
MODULE_DESCRIPTION("cdev-compat migration corpus: major through a pointer, two files");
MODULE_LICENSE("GPL");
