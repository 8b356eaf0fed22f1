// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_reuse - two char devices registered one after the other through the
 * same local result variable, each major then copied into a variable of its
 * own and unregistered from there; the second major is a parameter, kept with
 * "if (major == 0) major = rc".
 *
 * Written for the cdev-compat migration corpus (a result variable reused:
 * two registrations, two handles).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static int corp_reuse_bus_major;
static int corp_reuse_dimm_major;
module_param_named(dimm_major, corp_reuse_dimm_major, int, 0444);
MODULE_PARM_DESC(dimm_major, "major of the second device, 0 for a dynamic one");

static ssize_t corp_reuse_read(struct file *file, char __user *buf,
			       size_t len, loff_t *ppos)
{
	const char *what = imajor(file_inode(file)) == corp_reuse_bus_major ?
			   "bus" : "dimm";
	char line[32];
	int n;

	n = scnprintf(line, sizeof(line), "corp_reuse %s\n", what);
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static const struct file_operations corp_reuse_fops = {
	.owner = THIS_MODULE,
	.read = corp_reuse_read,
};

static int __init corp_reuse_init(void)
{
	int rc;

	rc = register_chrdev(0, "corp_reuse_bus", &corp_reuse_fops);
	if (rc < 0)
		return rc;
	corp_reuse_bus_major = rc;

	rc = register_chrdev(corp_reuse_dimm_major, "corp_reuse_dimm",
			     &corp_reuse_fops);
	if (rc < 0)
		goto err_bus;
	if (corp_reuse_dimm_major == 0)
		corp_reuse_dimm_major = rc;
	return 0;

err_bus:
	unregister_chrdev(corp_reuse_bus_major, "corp_reuse_bus");
	return rc;
}

static void __exit corp_reuse_exit(void)
{
	unregister_chrdev(corp_reuse_dimm_major, "corp_reuse_dimm");
	unregister_chrdev(corp_reuse_bus_major, "corp_reuse_bus");
}

module_init(corp_reuse_init);
module_exit(corp_reuse_exit);
MODULE_DESCRIPTION("cdev-compat migration corpus: one result variable, two registrations");
MODULE_LICENSE("GPL");
