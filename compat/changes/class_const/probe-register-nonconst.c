// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: class_register() is the macro over __class_register(struct class *, key) of the
 * kernels before 6.4, which writes into the class (it must not be const).
 *
 * Set: class_register
 * Defines: CDEV_COMPAT_CLASS_REGISTER_CONST 0
 */
#include <linux/device.h>

bool cdev_compat_probe(void);
bool cdev_compat_probe(void)
{
	int (*fn)(struct class *cls, struct lock_class_key *key) = __class_register;

	return fn;
}
