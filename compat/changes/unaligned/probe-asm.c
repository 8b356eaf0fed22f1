// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: only <asm/unaligned.h> exists (before 6.12).
 *
 * Set: unaligned
 * Defines: CDEV_COMPAT_HAVE_LINUX_UNALIGNED_H 0
 */
#if __has_include("linux/unaligned.h")
#error "<linux/unaligned.h> exists"
#endif
#include <linux/types.h>
#include <asm/unaligned.h>

u32 cdev_compat_probe(const void *p);
u32 cdev_compat_probe(const void *p)
{
	return get_unaligned_le32(p);
}
