// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_early - a legacy driver whose module parameter, its first global, comes before its
 * last #include, as older drivers have it. Written for the cdev-compat migration corpus.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

static int corp_early_major;
module_param(corp_early_major, int, 0444);
MODULE_PARM_DESC(corp_early_major, "major number (0: dynamic)");

#include <linux/fs.h>
#include <linux/uaccess.h>

static const char corp_early_text[] = "corp_early\n";

static ssize_t corp_early_read(struct file *file, char __user *buf, size_t len,
			       loff_t *ppos)
{
	return simple_read_from_buffer(buf, len, ppos, corp_early_text,
				       sizeof(corp_early_text) - 1);
}

static const struct file_operations corp_early_fops = {
	.owner = THIS_MODULE,
	.read = corp_early_read,
};

static int __init corp_early_init(void)
{
	int ret = register_chrdev(corp_early_major, "corp_early", &corp_early_fops);

	if (ret < 0)
		return ret;
	if (!corp_early_major)
		corp_early_major = ret;
	return 0;
}

static void __exit corp_early_exit(void)
{
	unregister_chrdev(corp_early_major, "corp_early");
}

module_init(corp_early_init);
module_exit(corp_early_exit);
MODULE_DESCRIPTION("migration corpus: globals before the last include");
MODULE_LICENSE("GPL");
