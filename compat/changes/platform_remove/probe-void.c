// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: struct platform_driver::remove returns void.
 *
 * Detects: 6.11 and later ("platform: Make platform_driver::remove() return void").
 *
 * Set: platform_remove
 * Defines: CDEV_COMPAT_PLATFORM_REMOVE_VOID 1
 */
#include <linux/platform_device.h>

static void cdev_compat_remove(struct platform_device *pdev)
{
}

struct platform_driver cdev_compat_probe = {
	.remove = cdev_compat_remove,
};
