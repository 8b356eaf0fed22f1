// SPDX-License-Identifier: GPL-2.0-only
/* unaligned corpus test: /dev/MODULE reads get_unaligned_le32() of 02 03 04 05. */
static int test_unaligned(const char *mod, char *why, size_t len)
{
	char got[64] = "";

	if (cc_read_dev(mod, got, sizeof(got)) < 0)
		return cc_fail(why, len, "read /dev/%s: %s", mod, strerror(errno));
	if (strcmp(got, "0x05040302\n"))
		return cc_fail(why, len, "read '%s', want '0x05040302'", got);
	return 0;
}
