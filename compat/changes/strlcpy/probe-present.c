// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: strlcpy() can be called.
 *
 * Detects: the kernels before 6.8, where "string: Remove strlcpy()" removed it (its callers
 * had been converted to strscpy(), whose return value differs).
 *
 * Set: strlcpy
 * Defines: CDEV_COMPAT_HAVE_STRLCPY 1
 */
#include <linux/string.h>

size_t cdev_compat_probe(char *dst, const char *src, size_t size);
size_t cdev_compat_probe(char *dst, const char *src, size_t size)
{
	return strlcpy(dst, src, size);
}
