// SPDX-License-Identifier: GPL-2.0
/*
 * onearg_test - the smallest legacy char driver: register_chrdev() with major 0 (dynamic) at
 * load, unregister_chrdev() at unload. Built against the one-arg kernel's headers by
 * kernel/boot-test.sh. With -DONEARG_TEST_TWOARG it uses the old two-arg spelling and, with no
 * compat header, must fail to build against those headers.
 */
#include <linux/fs.h>
#include <linux/module.h>

#define NAME "onearg_test"
static const char msg[] = "cdev-onearg\n";
static int major;

static ssize_t onearg_read(struct file *file, char __user *buf, size_t len, loff_t *pos)
{
	return simple_read_from_buffer(buf, len, pos, msg, sizeof(msg) - 1);
}

static const struct file_operations onearg_fops = {
	.owner = THIS_MODULE,
	.read = onearg_read,
	.llseek = default_llseek,
};

static int __init onearg_init(void)
{
	major = register_chrdev(0, NAME, &onearg_fops);
	if (major < 0)
		return major;
	pr_info(NAME ": registered major %d\n", major);
	return 0;
}

static void __exit onearg_exit(void)
{
#ifdef ONEARG_TEST_TWOARG
	unregister_chrdev(major, NAME);
#else
	unregister_chrdev(major);
#endif
	pr_info(NAME ": unregistered major %d\n", major);
}

module_init(onearg_init);
module_exit(onearg_exit);
MODULE_DESCRIPTION("register_chrdev()/unregister_chrdev(major) smoke test");
MODULE_LICENSE("GPL");
