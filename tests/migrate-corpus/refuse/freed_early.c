// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused: the per-device struct that holds the major is freed when its last
 * reference goes, not at module unload; a cdev embedded in it could be freed
 * while a file is still open.
 */
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/slab.h>

struct rf_dev {
	struct kref ref;
	int major;
};

static const struct file_operations rf_fops = { .owner = THIS_MODULE };

static void rf_release(struct kref *ref)
{
	struct rf_dev *dev = container_of(ref, struct rf_dev, ref);

	unregister_chrdev(dev->major, "rf");
	kfree(dev);
}

static struct rf_dev *rf_add(void)
{
	struct rf_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (!dev)
		return NULL;
	kref_init(&dev->ref);
	dev->major = register_chrdev(0, "rf", &rf_fops);
	if (dev->major < 0) {
		kfree(dev);
		return NULL;
	}
	return dev;
}

static struct rf_dev *rf_one;

static int __init rf_init(void)
{
	rf_one = rf_add();
	return rf_one ? 0 : -ENOMEM;
}

static void __exit rf_exit(void)
{
	kref_put(&rf_one->ref, rf_release);
}

module_init(rf_init);
module_exit(rf_exit);
MODULE_LICENSE("GPL");
