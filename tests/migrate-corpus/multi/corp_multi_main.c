// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_multi - a driver in two files: this one holds the module entry points
 * and the major (shared through corp_multi.h), corp_multi_chrdev.c registers
 * the char device; the unregistration is here, in the other file.
 *
 * Written for the cdev-compat migration corpus (a multi-file driver).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include "corp_multi.h"

int corp_multi_major;
module_param_named(major, corp_multi_major, int, 0444);
MODULE_PARM_DESC(major, "major number, 0 for a dynamic one");

u32 corp_multi_channel_value(unsigned int channel)
{
	return 0x1000 + channel;
}

static int __init corp_multi_init(void)
{
	int err;

	err = corp_multi_chrdev_init();
	if (err)
		return err;
	pr_info("%d channels on major %d\n", CORP_MULTI_CHANNELS,
		corp_multi_major);
	return 0;
}

static void __exit corp_multi_exit(void)
{
	unregister_chrdev(corp_multi_major, CORP_MULTI_NAME);
}

module_init(corp_multi_init);
module_exit(corp_multi_exit);
MODULE_DESCRIPTION("cdev-compat migration corpus: a driver in two files");
MODULE_LICENSE("GPL");
