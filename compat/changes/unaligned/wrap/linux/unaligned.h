/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat <linux/unaligned.h>: the kernel's where it has one (6.12 and later), else its
 * <asm/unaligned.h>. A path only: it works in every build with the cdev-compat line.
 */
#if __has_include_next("linux/unaligned.h")
#include_next <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif
