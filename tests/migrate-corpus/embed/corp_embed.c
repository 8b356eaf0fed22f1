// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_embed - a single-device driver whose state (the class and the node of
 * its one device) lives in one struct; register_chrdev() keeps the major in a
 * variable of its own. Converted with --embed corp_embed_dev.region, the
 * handle goes into that struct.
 *
 * Written for the cdev-compat migration corpus (--embed).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

struct corp_embed_dev {
	struct class *class;
	struct device *node;
};

static struct corp_embed_dev corp_embed;
static int corp_embed_major;

static ssize_t corp_embed_read(struct file *file, char __user *buf,
			       size_t len, loff_t *ppos)
{
	static const char line[] = "corp_embed\n";

	return simple_read_from_buffer(buf, len, ppos, line, sizeof(line) - 1);
}

static const struct file_operations corp_embed_fops = {
	.owner = THIS_MODULE,
	.read = corp_embed_read,
};

static int __init corp_embed_init(void)
{
	int err;

	corp_embed_major = register_chrdev(0, "corp_embed", &corp_embed_fops);
	if (corp_embed_major < 0)
		return corp_embed_major;
	corp_embed.class = class_create(THIS_MODULE, "corp_embed");
	if (IS_ERR(corp_embed.class)) {
		err = PTR_ERR(corp_embed.class);
		goto err_chrdev;
	}
	corp_embed.node = device_create(corp_embed.class, NULL,
					MKDEV(corp_embed_major, 0), NULL,
					"corp_embed");
	if (IS_ERR(corp_embed.node)) {
		err = PTR_ERR(corp_embed.node);
		goto err_class;
	}
	return 0;

err_class:
	class_destroy(corp_embed.class);
err_chrdev:
	unregister_chrdev(corp_embed_major, "corp_embed");
	return err;
}

static void __exit corp_embed_exit(void)
{
	device_destroy(corp_embed.class, MKDEV(corp_embed_major, 0));
	class_destroy(corp_embed.class);
	unregister_chrdev(corp_embed_major, "corp_embed");
}

module_init(corp_embed_init);
module_exit(corp_embed_exit);
MODULE_DESCRIPTION("cdev-compat migration corpus: the handle embedded by --embed");
MODULE_LICENSE("GPL");
