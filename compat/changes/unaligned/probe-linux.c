// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: <linux/unaligned.h> exists (6.12 and later).
 *
 * Detects: "move asm/unaligned.h to linux/unaligned.h" (6.12). The wrapper headers pick the
 * right file by __has_include_next(); this verdict records which side the kernel is on.
 *
 * Set: unaligned
 * Defines: CDEV_COMPAT_HAVE_LINUX_UNALIGNED_H 1
 */
#include <linux/unaligned.h>

u32 cdev_compat_probe(const void *p);
u32 cdev_compat_probe(const void *p)
{
	return get_unaligned_le32(p);
}
