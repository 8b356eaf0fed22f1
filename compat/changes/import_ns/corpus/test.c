// SPDX-License-Identifier: GPL-2.0-only
/* import_ns corpus test: /dev/MODULE reads "value=42" from the namespace's provider. */
static int test_import_ns(const char *mod, char *why, size_t len)
{
	char got[64] = "";

	if (cc_read_dev(mod, got, sizeof(got)) < 0)
		return cc_fail(why, len, "read /dev/%s: %s", mod, strerror(errno));
	if (strcmp(got, "value=42\n"))
		return cc_fail(why, len, "read '%s', want 'value=42'", got);
	return 0;
}
