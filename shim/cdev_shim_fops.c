// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim test device bodies: what every test device of cdev_shim.ko answers, written once.
 * A read returns one line naming the device and minor that served it, a write accepts any
 * bytes, CDEV_SHIM_IOC_WHOAMI returns the same facts as the line. Each device differs only in
 * how it finds those facts: its struct cdev_shim_fops carries that callback next to the
 * file_operations it registers, and file->f_op leads back to it. This file calls nothing
 * else in the module.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "cdev_shim.h"

static void cdev_shim_info(struct file *file, struct cdev_shim_region_info *info)
{
	const struct cdev_shim_fops *ops = container_of(file->f_op, struct cdev_shim_fops, fops);

	ops->info(file_inode(file), info);
}

/**
 * cdev_shim_read() - read() of the test devices: one line, then EOF
 * @file: the open file
 * @buf: user buffer
 * @len: its length
 * @ppos: file position
 *
 * Return: bytes copied, 0 at EOF, or -EFAULT.
 */
ssize_t cdev_shim_read(struct file *file, char __user *buf, size_t len,
		       loff_t *ppos)
{
	struct cdev_shim_region_info info;
	char line[128];
	int n;

	cdev_shim_info(file, &info);
	n = scnprintf(line, sizeof(line),
		      "dev=%s major=%u minor=%u index=%u cdev_compat=%d\n",
		      info.name, info.major, info.minor, info.index,
		      info.served_by_cdev_compat);
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

/**
 * cdev_shim_write() - write() of the test devices: accepts and drops any bytes
 * @file: the open file
 * @buf: user buffer
 * @len: its length
 * @ppos: file position
 *
 * Return: @len.
 */
ssize_t cdev_shim_write(struct file *file, const char __user *buf, size_t len,
			loff_t *ppos)
{
	return len;
}

/**
 * cdev_shim_ioctl() - unlocked_ioctl() of the test devices: CDEV_SHIM_IOC_WHOAMI only
 * @file: the open file
 * @cmd: the ioctl
 * @arg: user pointer to a struct cdev_shim_whoami
 *
 * Return: 0, -ENOTTY for another ioctl, or -EFAULT.
 */
long cdev_shim_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct cdev_shim_region_info info;
	struct cdev_shim_whoami who = {};

	if (cmd != CDEV_SHIM_IOC_WHOAMI)
		return -ENOTTY;
	cdev_shim_info(file, &info);
	who.major = info.major;
	who.minor = info.minor;
	who.index = info.index;
	who.served_by_cdev_compat = info.served_by_cdev_compat;
	strscpy(who.name, info.name, sizeof(who.name));
	if (copy_to_user((void __user *)arg, &who, sizeof(who)))
		return -EFAULT;
	return 0;
}

static int region_open(struct inode *inode, struct file *file)
{
	struct cdev_shim_dev *dev = cdev_compat_from_inode(inode,
							   struct cdev_shim_dev,
							   region);

	atomic_inc(&dev->opens);
	return 0;
}

static void region_info(struct inode *inode, struct cdev_shim_region_info *info)
{
	struct cdev_compat_region *r = cdev_compat_region_of(inode);

	info->name = r->name;
	info->major = imajor(inode);
	info->minor = iminor(inode);
	info->index = cdev_compat_index(inode);
	info->served_by_cdev_compat = true;
}

/* The main device's and the control device's test regions: cdev-compat regions. */
const struct cdev_shim_fops cdev_shim_region_fops = CDEV_SHIM_FOPS(region_open, region_info);

static void alt_info(struct inode *inode, struct cdev_shim_region_info *info)
{
	region_info(inode, info);
	info->name = "cdev_shim_alt";
}

/*
 * The same device under another name: a test region registered again with these
 * (CDEV_SHIM_IOC_REUSE) shows which registration a file reaches.
 */
const struct cdev_shim_fops cdev_shim_alt_fops = CDEV_SHIM_FOPS(region_open, alt_info);
