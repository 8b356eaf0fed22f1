// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim_peer - a second module in redirect mode that unregisters a major another module
 * registered: unregister_chrdev(@major, name) at load, nothing at unload. cdev-compat must
 * leave the other module's registration alone (with a message): the kernel's own
 * __unregister_chrdev() would free its device numbers and leave its cdev mapped, and the
 * other module's own unregister would later free whatever registered the major next. A test
 * module: test images only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#define CDEV_COMPAT_DEFINE_HELPERS

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <cdev_compat.h>

static unsigned int major;
module_param(major, uint, 0444);
MODULE_PARM_DESC(major, "the major another module registered, to unregister at load");

static int __init peer_init(void)
{
	if (!major)
		return -EINVAL;
	unregister_chrdev(major, "cdev_shim_peer");
	return 0;
}

static void __exit peer_exit(void)
{
}

module_init(peer_init);
module_exit(peer_exit);

MODULE_DESCRIPTION("cdev-compat test: a module that unregisters another module's major");
MODULE_LICENSE("GPL");
