// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: class_register() is the macro over __class_register(struct class *, key) of the
 * kernels before 6.4, which writes into the class (it must not be const).
 *
 * Set: class_register
 * Defines: CDEV_COMPAT_CLASS_REGISTER_CONST 0
 */
#include <linux/device.h>

typedef int (*cdev_compat_probe_fn)(struct class *cls, struct lock_class_key *key);

cdev_compat_probe_fn cdev_compat_probe(void);
cdev_compat_probe_fn cdev_compat_probe(void)
{
	return __class_register;
}
