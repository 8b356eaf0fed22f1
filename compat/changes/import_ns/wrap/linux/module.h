/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/module.h> for MODULE_IMPORT_NS() (force-included builds): see ../../compat.h. */
#include_next <linux/module.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <import_ns/compat.h>
#endif
