// SPDX-License-Identifier: GPL-2.0-only
/*
 * broken_answer - made to fail the vendor matrix's test cell only: it builds, loads and
 * unloads cleanly on every kernel, but its device answers 41 where its test expects 42.
 */
#include <linux/fs.h>
#include <linux/module.h>

static int broken_major;
static const char broken_text[] = "41\n";

static ssize_t broken_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	return simple_read_from_buffer(buf, len, ppos, broken_text, sizeof(broken_text) - 1);
}

static const struct file_operations broken_fops = {
	.owner = THIS_MODULE,
	.read = broken_read,
	.llseek = noop_llseek,
};

static int __init broken_init(void)
{
	broken_major = register_chrdev(0, "broken_answer", &broken_fops);
	return broken_major < 0 ? broken_major : 0;
}

static void __exit broken_exit(void)
{
	unregister_chrdev(broken_major, "broken_answer");
}

module_init(broken_init);
module_exit(broken_exit);
MODULE_DESCRIPTION("vendor matrix proof: gives the wrong answer");
MODULE_LICENSE("GPL");
