// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: class_create() takes only (name).
 *
 * Detects: commit 1aaba11da9aa ("driver core: class: remove module * from class_create()").
 * First mainline version: 6.4.
 *
 * Set: class_create
 * Defines: CDEV_COMPAT_CLASS_CREATE_HAS_OWNER 0
 */
#include <linux/device.h>

struct class *cdev_compat_probe(void);
struct class *cdev_compat_probe(void)
{
	return class_create("cdev_compat_probe");
}
