// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: struct class::dev_uevent takes a struct device *.
 *
 * Detects: before 6.2.
 *
 * Set: class_uevent
 * Defines: CDEV_COMPAT_CLASS_UEVENT_CONST_DEVICE 0
 */
#include <linux/device.h>

static int cdev_compat_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	return 0;
}

void cdev_compat_probe(struct class *cls);
void cdev_compat_probe(struct class *cls)
{
	cls->dev_uevent = cdev_compat_uevent;
}
