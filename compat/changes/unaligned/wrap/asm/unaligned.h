/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat <asm/unaligned.h>: the kernel's where it has one, else <linux/unaligned.h>,
 * where 6.12 moved it ("move asm/unaligned.h to linux/unaligned.h"). A path only: it works in
 * every build with the cdev-compat line, force-included or not.
 */
#if __has_include_next("asm/unaligned.h")
#include_next <asm/unaligned.h>
#else
#include <linux/unaligned.h>
#endif
