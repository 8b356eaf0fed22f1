// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: a class attribute's show() and store() take const struct class * and
 * struct class_attribute *.
 *
 * Detects: a const struct class * with a struct class_attribute * (the shape between the two changes).
 *
 * Set: class_attr_show
 * Defines: CDEV_COMPAT_CLASS_ATTR_SHOW 1
 */
#include <linux/device.h>

static ssize_t cdev_compat_show(const struct class *cls, struct class_attribute *attr,
				char *buf)
{
	return 0;
}

static ssize_t cdev_compat_store(const struct class *cls, struct class_attribute *attr,
				 const char *buf, size_t count)
{
	return count;
}

void cdev_compat_probe(struct class_attribute *attr);
void cdev_compat_probe(struct class_attribute *attr)
{
	attr->show = cdev_compat_show;
	attr->store = cdev_compat_store;
}
