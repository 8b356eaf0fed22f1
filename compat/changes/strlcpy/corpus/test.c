// SPDX-License-Identifier: GPL-2.0-only
/*
 * strlcpy corpus test: /dev/MODULE reads the copy of "abcdefghij" into 4 bytes and its result:
 * strlcpy()'s strlen(src), 10 (the old spelling, also where cdev-compat supplies it), or
 * strscpy()'s -E2BIG (the new).
 */
static int test_strlcpy(const char *mod, char *why, size_t len)
{
	char got[128] = "";
	const char *want = strstr(mod, "_old") ? "ret=10 buf=abc truncated=1\n" :
						 "ret=-7 buf=abc truncated=1\n";

	if (cc_read_dev(mod, got, sizeof(got)) < 0)
		return cc_fail(why, len, "read /dev/%s: %s", mod, strerror(errno));
	if (strcmp(got, want))
		return cc_fail(why, len, "read '%s', want '%s'", got, want);
	return 0;
}
