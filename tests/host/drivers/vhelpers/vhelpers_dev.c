// SPDX-License-Identifier: GPL-2.0-only
/* vhelpers, second file: the teardown, calling a helper defined in vhelpers_main.c. */
#include <linux/fs.h>
#include <linux/module.h>
#include <cdev_compat.h>

#include "vhelpers.h"

void vhelpers_remove(void)
{
	cdev_compat_unregister(&vhelpers_dev.region);
}
