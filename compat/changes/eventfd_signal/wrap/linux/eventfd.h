/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/eventfd.h> (force-included builds): see ../../compat.h. */
#include_next <linux/eventfd.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <eventfd_signal/compat.h>
#endif
