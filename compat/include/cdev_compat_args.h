/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat_args.h - argument counting for the cdev-compat macros that accept more than one
 * spelling of a kernel function (unregister_chrdev(), class_create()). No includes.
 */
#ifndef CDEV_COMPAT_ARGS_H
#define CDEV_COMPAT_ARGS_H

/* The number of arguments, 1 to 5. */
#define CDEV_COMPAT_NARGS(...) CDEV_COMPAT_NARGS_(__VA_ARGS__, 5, 4, 3, 2, 1, 0)
#define CDEV_COMPAT_NARGS_(a1, a2, a3, a4, a5, n, ...) n
#define CDEV_COMPAT_CAT(a, b) CDEV_COMPAT_CAT_(a, b)
#define CDEV_COMPAT_CAT_(a, b) a##b

#endif /* CDEV_COMPAT_ARGS_H */
