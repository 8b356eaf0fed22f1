// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: strlcpy is neither a macro nor declared (6.8 and later).
 *
 * Set: strlcpy
 * Defines: CDEV_COMPAT_HAVE_STRLCPY 0
 */
#include <linux/string.h>

#ifdef strlcpy
#error "strlcpy is a macro"
#endif
int strlcpy;
