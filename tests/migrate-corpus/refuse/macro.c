// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused: the registration is inside a macro, which the conversion cannot
 * follow; the unregistration it could convert stays as it is too.
 */
#include <linux/fs.h>
#include <linux/module.h>

#define RM_REGISTER(m, n, f)	((m) = register_chrdev(0, (n), (f)))

static const struct file_operations rm_fops = { .owner = THIS_MODULE };
static int rm_major;

static int __init rm_init(void)
{
	if (RM_REGISTER(rm_major, "rm", &rm_fops) < 0)
		return rm_major;
	return 0;
}

static void __exit rm_exit(void)
{
	unregister_chrdev(rm_major, "rm");
}

module_init(rm_init);
module_exit(rm_exit);
MODULE_LICENSE("GPL");
