/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef VHELPERS_H
#define VHELPERS_H
#include <cdev_compat.h>

struct vhelpers_dev {
	struct cdev_compat_region region;
};

extern struct vhelpers_dev vhelpers_dev;
void vhelpers_remove(void);
#endif
