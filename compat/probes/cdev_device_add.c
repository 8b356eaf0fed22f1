// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: cdev_device_add()/cdev_device_del() exist with their current types.
 *
 * Detects: commit 233ed09d7fda ("chardev: add helper function to register char devs with a
 * struct device", Logan Gunthorpe). First mainline version: 4.11. This set has one variant:
 * cdev-compat supports no kernel without it, so a failure stops the build.
 *
 * Set: cdev_device_add
 * Defines: CDEV_COMPAT_HAVE_CDEV_DEVICE_ADD 1
 */
#include <linux/cdev.h>
#include <linux/device.h>

int cdev_compat_probe(struct cdev *cdev, struct device *dev);
int cdev_compat_probe(struct cdev *cdev, struct device *dev)
{
	int (*add)(struct cdev *cdev, struct device *dev) = cdev_device_add;
	void (*del)(struct cdev *cdev, struct device *dev) = cdev_device_del;
	int ret = add(cdev, dev);

	if (!ret)
		del(cdev, dev);
	return ret;
}
