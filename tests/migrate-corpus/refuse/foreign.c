// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused: the file unregisters a major that no registration here keeps
 * (another file of the driver registers it and is not given).
 */
#include <linux/fs.h>
#include <linux/module.h>

extern int rx_major;

void rx_cleanup(void)
{
	unregister_chrdev(rx_major, "rx");
}
