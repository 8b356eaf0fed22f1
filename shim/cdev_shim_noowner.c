// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim_noowner - a one-file legacy driver whose file operations set only .read: no
 * .owner, as the kernel allows (6.1's intel_scu_ipcutil.c and esas2r_main.c have such
 * file operations). It registers one device with register_chrdev(), which redirect mode
 * serves, and one region with cdev_compat_register(), both with these file operations, and
 * unregisters both on unload. Loading, opening, reading, closing and unloading it must work
 * (a NULL owner once faulted at load in redirect mode). A test module: test images only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#define CDEV_COMPAT_DEFINE_HELPERS

#include <linux/fs.h>
#include <linux/module.h>
#include <cdev_compat.h>

#define NOOWNER_NAME "cdev_shim_noowner"
#define NOOWNER_REGION_NAME "cdev_shim_noowner_region"

static const char noowner_text[] = "cdev_shim_noowner\n";

static ssize_t noowner_read(struct file *file, char __user *buf, size_t len,
			    loff_t *ppos)
{
	return simple_read_from_buffer(buf, len, ppos, noowner_text,
				       sizeof(noowner_text) - 1);
}

static const struct file_operations noowner_fops = {
	.read = noowner_read,
};

static int noowner_major;
static struct cdev_compat_region noowner_region;

static int __init noowner_init(void)
{
	int ret;

	ret = register_chrdev(0, NOOWNER_NAME, &noowner_fops);
	if (ret < 0)
		return ret;
	noowner_major = ret;
	ret = cdev_compat_register(&noowner_region, 0, 0, 1, NOOWNER_REGION_NAME,
				   &noowner_fops);
	if (ret) {
		unregister_chrdev(noowner_major, NOOWNER_NAME);
		return ret;
	}
	return 0;
}

static void __exit noowner_exit(void)
{
	cdev_compat_unregister(&noowner_region);
	unregister_chrdev(noowner_major, NOOWNER_NAME);
}

module_init(noowner_init);
module_exit(noowner_exit);

MODULE_DESCRIPTION("cdev-compat test: file operations without an owner");
MODULE_LICENSE("GPL");
