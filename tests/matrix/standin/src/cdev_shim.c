// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-in for the project's shim/ module, used only to exercise the matrix plumbing before
 * the real cdev-compat-dkms package exists (tests/matrix/make-standin-deb.sh). Same user-facing
 * behaviour as agreed for shim/: region "cdev_shim", nodes /dev/cdev_shim<minor> (0666),
 * read() = "major=M minor=m\n", write() accepts everything. No compat header, no probes.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/version.h>

static int major;
module_param(major, int, 0444);
static int baseminor;
module_param(baseminor, int, 0444);
static int count = 4;
module_param(count, int, 0444);

static dev_t first;
static struct cdev shim_cdev;
static struct class *shim_class;

static ssize_t shim_read(struct file *f, char __user *buf, size_t len, loff_t *pos)
{
	char line[48];
	int n = scnprintf(line, sizeof(line), "major=%u minor=%u\n",
			  imajor(file_inode(f)), iminor(file_inode(f)));

	return simple_read_from_buffer(buf, len, pos, line, n);
}

static ssize_t shim_write(struct file *f, const char __user *buf, size_t len, loff_t *pos)
{
	return len;
}

static const struct file_operations shim_fops = {
	.owner = THIS_MODULE,
	.read = shim_read,
	.write = shim_write,
};

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
static char *shim_devnode(const struct device *dev, umode_t *mode)
#else
static char *shim_devnode(struct device *dev, umode_t *mode)
#endif
{
	if (mode)
		*mode = 0666;
	return NULL;
}

static int __init shim_init(void)
{
	int i, ret;

	if (major) {
		first = MKDEV(major, baseminor);
		ret = register_chrdev_region(first, count, "cdev_shim");
	} else {
		ret = alloc_chrdev_region(&first, baseminor, count, "cdev_shim");
	}
	if (ret)
		return ret;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	shim_class = class_create("cdev_shim");
#else
	shim_class = class_create(THIS_MODULE, "cdev_shim");
#endif
	if (IS_ERR(shim_class)) {
		ret = PTR_ERR(shim_class);
		goto out_region;
	}
	shim_class->devnode = shim_devnode;
	for (i = 0; i < count; i++)
		device_create(shim_class, NULL, first + i, NULL, "cdev_shim%d", MINOR(first) + i);
	cdev_init(&shim_cdev, &shim_fops);
	shim_cdev.owner = THIS_MODULE;
	ret = cdev_add(&shim_cdev, first, count);
	if (ret)
		goto out_class;
	return 0;
out_class:
	for (i = 0; i < count; i++)
		device_destroy(shim_class, first + i);
	class_destroy(shim_class);
out_region:
	unregister_chrdev_region(first, count);
	return ret;
}

static void __exit shim_exit(void)
{
	int i;

	cdev_del(&shim_cdev);
	for (i = 0; i < count; i++)
		device_destroy(shim_class, first + i);
	class_destroy(shim_class);
	unregister_chrdev_region(first, count);
}

module_init(shim_init);
module_exit(shim_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cdev-compat matrix stand-in for the shim module");
MODULE_INFO(cdev_compat_unregister_args, "standin");
