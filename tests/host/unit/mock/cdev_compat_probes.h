/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for the generated probe results: arity from MOCK_ARGS. */
#define CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS MOCK_ARGS
#define CDEV_COMPAT___UNREGISTER_CHRDEV_ARGS (MOCK_ARGS + 2)
