// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused as a whole: the control device could be converted, the per-device
 * one (freed when its last user goes) cannot, so the file stays as it is, the
 * control device included.
 */
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/slab.h>

struct rx_unit {
	struct kref ref;
	int major;
};

static const struct file_operations rx_fops = { .owner = THIS_MODULE };
static int rx_ctl_major;
static struct rx_unit *rx_unit;

static void rx_unit_release(struct kref *ref)
{
	struct rx_unit *u = container_of(ref, struct rx_unit, ref);

	unregister_chrdev(u->major, "rx_unit");
	kfree(u);
}

static int __init rx_init(void)
{
	rx_ctl_major = register_chrdev(0, "rx_ctl", &rx_fops);
	if (rx_ctl_major < 0)
		return rx_ctl_major;
	rx_unit = kzalloc(sizeof(*rx_unit), GFP_KERNEL);
	if (!rx_unit)
		goto err;
	kref_init(&rx_unit->ref);
	rx_unit->major = register_chrdev(0, "rx_unit", &rx_fops);
	if (rx_unit->major < 0) {
		kfree(rx_unit);
		goto err;
	}
	return 0;
err:
	unregister_chrdev(rx_ctl_major, "rx_ctl");
	return -ENOMEM;
}

static void __exit rx_exit(void)
{
	kref_put(&rx_unit->ref, rx_unit_release);
	unregister_chrdev(rx_ctl_major, "rx_ctl");
}

module_init(rx_init);
module_exit(rx_exit);
MODULE_LICENSE("GPL");
