// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: struct class::devnode takes a non-const struct device *.
 *
 * Detects: the form before commit ff62b8e6588f ("driver core: make struct class.devnode()
 * take a const *"). First mainline version: 2.6.32 (umode_t since 3.3); last: 6.1.
 *
 * Set: class_devnode
 * Defines: CDEV_COMPAT_DEVNODE_CONST_DEVICE 0
 */
#include <linux/device.h>

static char *cdev_compat_devnode(struct device *dev, umode_t *mode)
{
	return NULL;
}

void cdev_compat_probe(struct class *cls);
void cdev_compat_probe(struct class *cls)
{
	cls->devnode = cdev_compat_devnode;
}
