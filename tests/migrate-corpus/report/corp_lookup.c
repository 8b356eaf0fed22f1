// SPDX-License-Identifier: GPL-2.0-only
/*
 * corp_lookup - four ways legacy drivers find their device from the minor
 * number, which --report must each list with what replaces it: an idr keyed
 * by the minor of filp->f_inode, a table indexed by iminor(), an xarray keyed
 * by MINOR(inode->i_rdev), and a list searched in a loop.
 *
 * Written for the cdev-compat migration corpus (--report).
 */
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/xarray.h>

#define CORP_LOOKUP_UNITS 4

struct corp_lookup_unit {
	struct list_head node;
	unsigned int minor;
};

static DEFINE_IDR(corp_lookup_idr);
static DEFINE_XARRAY(corp_lookup_xa);
static LIST_HEAD(corp_lookup_list);
static struct corp_lookup_unit *corp_lookup_table[CORP_LOOKUP_UNITS];
static int corp_lookup_major;

static ssize_t corp_lookup_read(struct file *filp, char __user *buf,
				size_t len, loff_t *ppos)
{
	struct corp_lookup_unit *u = idr_find(&corp_lookup_idr,
					      iminor(filp->f_inode));

	return u ? 0 : -ENODEV;
}

static int corp_lookup_open(struct inode *inode, struct file *file)
{
	struct corp_lookup_unit *u;

	if (iminor(inode) >= CORP_LOOKUP_UNITS)
		return -ENODEV;
	u = corp_lookup_table[iminor(inode)];
	if (!u)
		return -ENODEV;
	file->private_data = u;
	return 0;
}

static int corp_lookup_release(struct inode *inode, struct file *file)
{
	unsigned long minor = MINOR(inode->i_rdev);

	return xa_load(&corp_lookup_xa, minor) ? 0 : -ENODEV;
}

static long corp_lookup_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	unsigned int minor = iminor(file_inode(file));
	struct corp_lookup_unit *u;

	list_for_each_entry(u, &corp_lookup_list, node) {
		if (u->minor == minor)
			return 0;
	}
	return -ENODEV;
}

static const struct file_operations corp_lookup_fops = {
	.owner = THIS_MODULE,
	.open = corp_lookup_open,
	.read = corp_lookup_read,
	.release = corp_lookup_release,
	.unlocked_ioctl = corp_lookup_ioctl,
};

static int __init corp_lookup_init(void)
{
	corp_lookup_major = register_chrdev(0, "corp_lookup", &corp_lookup_fops);
	return corp_lookup_major < 0 ? corp_lookup_major : 0;
}

static void __exit corp_lookup_exit(void)
{
	unregister_chrdev(corp_lookup_major, "corp_lookup");
}

module_init(corp_lookup_init);
module_exit(corp_lookup_exit);
MODULE_LICENSE("GPL");
