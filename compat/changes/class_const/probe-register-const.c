// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: class_register() is a function taking a const struct class *.
 *
 * Detects: 6.4 and later ("driver core: class: make class_register() take a const *"): a class
 * may be a static const object. (A name not followed by "(" is never macro-expanded: this takes
 * the address of a real function.)
 *
 * Set: class_register
 * Defines: CDEV_COMPAT_CLASS_REGISTER_CONST 1
 */
#include <linux/device.h>

bool cdev_compat_probe(void);
bool cdev_compat_probe(void)
{
	int (*fn)(const struct class *cls) = class_register;

	return fn;
}
