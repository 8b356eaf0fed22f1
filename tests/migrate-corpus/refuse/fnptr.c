// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused: register_chrdev() is called through a function pointer as well as
 * directly; the conversion converts all of a file's registrations or none.
 */
#include <linux/fs.h>
#include <linux/module.h>

static const struct file_operations rp_fops = { .owner = THIS_MODULE };
static int rp_major, rp_major2;
static int (*rp_register)(unsigned int, const char *,
			  const struct file_operations *) = register_chrdev;

static int __init rp_init(void)
{
	rp_major = register_chrdev(0, "rp", &rp_fops);
	if (rp_major < 0)
		return rp_major;
	rp_major2 = rp_register(0, "rp2", &rp_fops);
	return rp_major2 < 0 ? rp_major2 : 0;
}

static void __exit rp_exit(void)
{
	unregister_chrdev(rp_major2, "rp2");
	unregister_chrdev(rp_major, "rp");
}

module_init(rp_init);
module_exit(rp_exit);
MODULE_LICENSE("GPL");
