// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: struct platform_driver::remove returns int.
 *
 * Detects: before 6.11 (6.3 to 6.10 also have a void .remove_new, which 6.13 removed).
 *
 * Set: platform_remove
 * Defines: CDEV_COMPAT_PLATFORM_REMOVE_VOID 0
 */
#include <linux/platform_device.h>

static int cdev_compat_remove(struct platform_device *pdev)
{
	return 0;
}

struct platform_driver cdev_compat_probe = {
	.remove = cdev_compat_remove,
};
