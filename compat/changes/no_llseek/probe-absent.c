// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: no_llseek is neither a macro nor declared (6.12 and later).
 *
 * Set: no_llseek
 * Defines: CDEV_COMPAT_HAVE_NO_LLSEEK 0
 */
#include <linux/fs.h>

#ifdef no_llseek
#error "no_llseek is a macro"
#endif
int no_llseek;
