// SPDX-License-Identifier: GPL-2.0-only
/*
 * vendor_chardev - stands for a vendor's legacy character driver: register_chrdev() and the
 * two-argument unregister_chrdev(), its own pr_fmt, and no cdev-compat include. Reading the
 * device gives one line, "hello from vendor_chardev" (test.sh checks it in the guests). Kbuild
 * force-includes cdev_compat.h, so it builds unchanged on kernels whose unregister_chrdev()
 * takes one argument as well as on those whose takes two, without a warning.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>

#define VENDOR_NAME "vendor_chardev"

static int vendor_major;
static const char vendor_greeting[] = "hello from vendor_chardev\n";

static ssize_t vendor_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	return simple_read_from_buffer(buf, len, ppos, vendor_greeting,
				       sizeof(vendor_greeting) - 1);
}

static const struct file_operations vendor_fops = {
	.owner = THIS_MODULE,
	.read = vendor_read,
	.llseek = noop_llseek,
};

static int __init vendor_init(void)
{
	vendor_major = register_chrdev(0, VENDOR_NAME, &vendor_fops);
	if (vendor_major < 0)
		return vendor_major;
	pr_info("registered major %d\n", vendor_major);
	return 0;
}

static void __exit vendor_exit(void)
{
	unregister_chrdev(vendor_major, VENDOR_NAME);
}

module_init(vendor_init);
module_exit(vendor_exit);
MODULE_DESCRIPTION("cdev-compat example vendor module (legacy register_chrdev driver)");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0");
