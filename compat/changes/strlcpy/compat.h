/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strlcpy(): on every kernel, with its own return value.
 *
 * 6.8 removed strlcpy() after converting its callers to strscpy(), which every target kernel
 * has. strscpy() returns -E2BIG when it truncates, strlcpy() the length of the source, which
 * callers test for truncation ("if (strlcpy(d, s, n) >= n)"), so where strlcpy() is gone it
 * is a static inline function with the old semantics (a driver's own "#define strlcpy
 * strscpy" after it still builds, and keeps its own meaning).
 */
#ifndef CDEV_COMPAT_CHANGE_STRLCPY_H
#define CDEV_COMPAT_CHANGE_STRLCPY_H

#include <linux/string.h>
#include <cdev_compat_probes.h>

#if !CDEV_COMPAT_HAVE_STRLCPY && !defined(strlcpy)
/**
 * strlcpy() - copy a C string into a sized buffer, as before 6.8
 * @dest: where to copy the string to
 * @src: where to copy the string from
 * @size: size of the destination buffer
 *
 * Copies at most @size - 1 bytes and NUL-terminates the result when @size is not 0.
 *
 * Return: strlen(@src), so a result >= @size means the copy was truncated.
 */
static inline size_t strlcpy(char *dest, const char *src, size_t size)
{
	size_t ret = strlen(src);

	if (size) {
		size_t len = ret >= size ? size - 1 : ret;

		memcpy(dest, src, len);
		dest[len] = '\0';
	}
	return ret;
}
#endif

#endif /* CDEV_COMPAT_CHANGE_STRLCPY_H */
