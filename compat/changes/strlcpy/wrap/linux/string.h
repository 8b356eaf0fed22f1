/* SPDX-License-Identifier: GPL-2.0-only */
/* cdev-compat wrapper of <linux/string.h> for strlcpy (force-included builds): see ../../compat.h. */
#include_next <linux/string.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <strlcpy/compat.h>
#endif
