/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A platform driver's remove callback that builds on every kernel.
 *
 * 6.11 made struct platform_driver::remove return void (6.3 to 6.12 had a void .remove_new
 * beside it). No header can change the field's type, so cdev-compat-migrate --api
 * (platform_remove.cocci) makes the callback void and writes, in the platform_driver,
 *
 *	CDEV_COMPAT_PLATFORM_REMOVE(my_remove),
 *
 * and after the callback
 *
 *	CDEV_COMPAT_DEFINE_PLATFORM_REMOVE(my_remove);
 *
 * which on a kernel whose .remove returns int define the int callback that calls it.
 */
#ifndef CDEV_COMPAT_CHANGE_PLATFORM_REMOVE_H
#define CDEV_COMPAT_CHANGE_PLATFORM_REMOVE_H

#include <linux/platform_device.h>
#include <cdev_compat_probes.h>

#if CDEV_COMPAT_PLATFORM_REMOVE_VOID
/* The platform_driver's .remove: the void callback itself. */
#define CDEV_COMPAT_PLATFORM_REMOVE(fn) .remove = (fn)
/* Nothing to define (the assertion only takes the semicolon after it). */
#define CDEV_COMPAT_DEFINE_PLATFORM_REMOVE(fn) _Static_assert(1, #fn)
#else
/* The platform_driver's .remove: an int callback that calls the void one. */
#define CDEV_COMPAT_PLATFORM_REMOVE(fn) .remove = fn##_cdev_compat_int
/* That int callback (the assertion only takes the semicolon after it). */
#define CDEV_COMPAT_DEFINE_PLATFORM_REMOVE(fn)				\
	static int fn##_cdev_compat_int(struct platform_device *pdev)	\
	{								\
		fn(pdev);						\
		return 0;						\
	}								\
	_Static_assert(1, #fn)
#endif

#endif /* CDEV_COMPAT_CHANGE_PLATFORM_REMOVE_H */
