// SPDX-License-Identifier: GPL-2.0-only
/*
 * vhelpers - a two-file driver on the cdev-compat helpers: this file defines them for the
 * module (CDEV_COMPAT_DEFINE_HELPERS) and registers; vhelpers_dev.c unregisters. Written for
 * the cdev-compat host tests.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#define CDEV_COMPAT_DEFINE_HELPERS

#include <linux/fs.h>
#include <linux/module.h>
#include <cdev_compat.h>

#include "vhelpers.h"

struct vhelpers_dev vhelpers_dev;

static int vhelpers_open(struct inode *inode, struct file *file)
{
	file->private_data = cdev_compat_from_inode(inode, struct vhelpers_dev, region);
	return 0;
}

static const struct file_operations vhelpers_fops = {
	.owner = THIS_MODULE,
	.open = vhelpers_open,
};

static int __init vhelpers_init(void)
{
	int ret = cdev_compat_register(&vhelpers_dev.region, 0, 0, 4, "vhelpers", &vhelpers_fops);

	if (ret)
		return ret;
	ret = cdev_compat_create_nodes(&vhelpers_dev.region, NULL, 0600, "vhelpers");
	if (ret)
		vhelpers_remove();
	return ret;
}

static void __exit vhelpers_exit(void)
{
	vhelpers_remove();
}

module_init(vhelpers_init);
module_exit(vhelpers_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cdev-compat host test: a two-file driver on the helpers");
