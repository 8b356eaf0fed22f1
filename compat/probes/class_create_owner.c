// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: class_create() takes (owner, name).
 *
 * Detects: the form before commit 1aaba11da9aa ("driver core: class: remove module * from
 * class_create()"), which dropped the owner argument in v6.4.
 * First mainline version: 2.6.13; last: 6.3.
 *
 * Set: class_create
 * Defines: CDEV_COMPAT_CLASS_CREATE_HAS_OWNER 1
 */
#include <linux/device.h>
#include <linux/module.h>

struct class *cdev_compat_probe(void);
struct class *cdev_compat_probe(void)
{
	return class_create(THIS_MODULE, "cdev_compat_probe");
}
