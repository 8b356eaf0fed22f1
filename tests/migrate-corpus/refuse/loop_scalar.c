// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused: registers several majors in a loop but keeps only the last one in
 * a single variable, so one handle cannot stand for them.
 */
#include <linux/fs.h>
#include <linux/module.h>

static const struct file_operations rl_fops = { .owner = THIS_MODULE };
static const char * const rl_names[] = { "rl_a", "rl_b" };
static int rl_major;

static int __init rl_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(rl_names); i++) {
		ret = register_chrdev(0, rl_names[i], &rl_fops);
		if (ret < 0)
			return ret;
		rl_major = ret;
	}
	return 0;
}

static void __exit rl_exit(void)
{
	unregister_chrdev(rl_major, rl_names[1]);
}

module_init(rl_init);
module_exit(rl_exit);
MODULE_LICENSE("GPL");
