// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim - the cdev-compat reference driver and test devices.
 *
 * The main device is registered with the cdev-compat helpers: a range of @count minors from
 * @baseminor on @major (0: dynamic), one node /dev/cdev_shim<minor> per minor. Reading a
 * node returns one line naming the device and minor that served it; writing accepts any
 * bytes; CDEV_SHIM_IOC_WHOAMI returns the same facts. The other parts are legacy
 * register_chrdev() users with both unregister_chrdev() spellings (cdev_shim_legacy.c), an
 * unmodified legacy driver in redirect mode that registers in one file and unregisters in
 * another (cdev_shim_redirect.c, cdev_shim_redirect_teardown.c) and a control device that
 * registers test regions on request (cdev_shim_ctl.c).
 *
 * This file defines the cdev-compat helpers for the whole module (CDEV_COMPAT_DEFINE_HELPERS),
 * the other files only call them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#define CDEV_COMPAT_DEFINE_HELPERS

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/uaccess.h>
#include <cdev_compat.h>

#include "cdev_shim.h"

static unsigned int major;
module_param(major, uint, 0444);
MODULE_PARM_DESC(major, "major of the main device (0: dynamic)");

static unsigned int baseminor;
module_param(baseminor, uint, 0444);
MODULE_PARM_DESC(baseminor, "first minor of the main device");

static unsigned int count = 4;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "number of minors of the main device");

static bool nodes = true;
module_param(nodes, bool, 0444);
MODULE_PARM_DESC(nodes, "create /dev/cdev_shim<minor> nodes");

static struct cdev_shim_dev shim_dev;

/**
 * cdev_shim_report() - read() body shared by the test devices: one line, then EOF
 * @info: the device and minor that serve the read
 * @buf: user buffer
 * @len: its length
 * @ppos: file position
 *
 * Return: bytes copied, 0 at EOF, or -EFAULT.
 */
ssize_t cdev_shim_report(const struct cdev_shim_region_info *info,
			 char __user *buf, size_t len, loff_t *ppos)
{
	char line[128];
	int n;

	n = scnprintf(line, sizeof(line),
		      "dev=%s major=%u minor=%u index=%u cdev_compat=%d\n",
		      info->name, info->major, info->minor, info->index,
		      info->served_by_cdev_compat);
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

/**
 * cdev_shim_whoami() - CDEV_SHIM_IOC_WHOAMI body shared by the test devices
 * @info: the device and minor that serve the ioctl
 * @arg: user pointer to a struct cdev_shim_whoami
 *
 * Return: 0 or -EFAULT.
 */
long cdev_shim_whoami(const struct cdev_shim_region_info *info,
		      unsigned long arg)
{
	struct cdev_shim_whoami who = {
		.major = info->major,
		.minor = info->minor,
		.index = info->index,
		.served_by_cdev_compat = info->served_by_cdev_compat,
	};

	strscpy(who.name, info->name, sizeof(who.name));
	if (copy_to_user((void __user *)arg, &who, sizeof(who)))
		return -EFAULT;
	return 0;
}

static void shim_info(struct inode *inode, struct cdev_shim_region_info *info)
{
	struct cdev_compat_region *r = cdev_compat_region_of(inode);

	info->name = r->name;
	info->major = imajor(inode);
	info->minor = iminor(inode);
	info->index = cdev_compat_index(inode);
	info->served_by_cdev_compat = true;
}

static int shim_open(struct inode *inode, struct file *file)
{
	struct cdev_shim_dev *dev = cdev_compat_from_inode(inode,
							   struct cdev_shim_dev,
							   region);

	atomic_inc(&dev->opens);
	return 0;
}

static ssize_t shim_read(struct file *file, char __user *buf, size_t len,
			 loff_t *ppos)
{
	struct cdev_shim_region_info info;

	shim_info(file_inode(file), &info);
	return cdev_shim_report(&info, buf, len, ppos);
}

static ssize_t shim_write(struct file *file, const char __user *buf,
			  size_t len, loff_t *ppos)
{
	return len;
}

static long shim_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct cdev_shim_region_info info;

	if (cmd != CDEV_SHIM_IOC_WHOAMI)
		return -ENOTTY;
	shim_info(file_inode(file), &info);
	return cdev_shim_whoami(&info, arg);
}

/* Also serves the control device's test regions, which are cdev-compat regions too. */
const struct file_operations cdev_shim_fops = {
	.owner = THIS_MODULE,
	.open = shim_open,
	.read = shim_read,
	.write = shim_write,
	.unlocked_ioctl = shim_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static int __init cdev_shim_init(void)
{
	int ret;

	ret = cdev_compat_register(&shim_dev.region, major, baseminor, count,
				   "cdev_shim", &cdev_shim_fops);
	if (ret) {
		pr_err("cannot register major %u minors %u+%u: %d\n",
		       major, baseminor, count, ret);
		return ret;
	}
	if (nodes) {
		ret = cdev_compat_create_nodes(&shim_dev.region, NULL, 0666,
					       "cdev_shim");
		if (ret) {
			pr_err("cannot create device nodes: %d\n", ret);
			goto err_region;
		}
	}
	ret = cdev_shim_legacy_init();
	if (ret)
		goto err_region;
	ret = cdev_shim_redirect_init();
	if (ret)
		goto err_legacy;
	ret = cdev_shim_ctl_init();
	if (ret)
		goto err_redirect;
	ret = cdev_shim_bench_init();
	if (ret)
		goto err_ctl;
	pr_info("registered %u:%u, %u minors (unregister_chrdev takes %d args)\n",
		MAJOR(shim_dev.region.first), MINOR(shim_dev.region.first), count,
		CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS);
	return 0;

err_ctl:
	cdev_shim_ctl_exit();
err_redirect:
	cdev_shim_redirect_exit();
err_legacy:
	cdev_shim_legacy_exit();
err_region:
	cdev_compat_unregister(&shim_dev.region);
	return ret;
}

static void __exit cdev_shim_exit(void)
{
	cdev_shim_bench_exit();
	cdev_shim_ctl_exit();
	cdev_shim_redirect_exit();
	cdev_shim_legacy_exit();
	cdev_compat_unregister(&shim_dev.region);
}

module_init(cdev_shim_init);
module_exit(cdev_shim_exit);

MODULE_DESCRIPTION("cdev-compat reference driver and test devices");
MODULE_LICENSE("GPL");
MODULE_VERSION(CDEV_COMPAT_VERSION);
MODULE_INFO(cdev_compat_unregister_args, __stringify(CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS));
MODULE_INFO(cdev_compat_kernel, CDEV_COMPAT_PROBED_RELEASE);
