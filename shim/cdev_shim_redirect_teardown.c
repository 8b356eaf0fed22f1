// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim redirect device, second file: the unregister_chrdev() of a major that
 * cdev_shim_redirect.c registered, in its own translation unit as multi-file drivers have it,
 * and returned from a void function as public drivers' exit functions do. Built, like
 * cdev_shim_redirect.c, in redirect mode: the redirect registrations are one list per
 * module, so it finds the registration the other file made.
 */
#include <linux/fs.h>

#include "cdev_shim.h"

/**
 * cdev_shim_redirect_unregister() - unregister_chrdev(major, name) of the redirect device
 * @major: the major register_chrdev() returned
 */
void cdev_shim_redirect_unregister(int major)
{
	return unregister_chrdev(major, CDEV_SHIM_REDIRECT_NAME);
}
