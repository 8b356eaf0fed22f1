// SPDX-License-Identifier: GPL-2.0-only
/* pde_data corpus test: /proc/MODULE reads "MODULE data", the data its show() found. */
static int test_pde_data(const char *mod, char *why, size_t len)
{
	char path[128], want[128], got[128] = "";

	snprintf(path, sizeof(path), "/proc/%s", mod);
	snprintf(want, sizeof(want), "%s data\n", mod);
	if (cc_read_file(path, got, sizeof(got)) < 0)
		return cc_fail(why, len, "read %s: %s", path, strerror(errno));
	if (strcmp(got, want))
		return cc_fail(why, len, "%s read '%s', want '%s'", path, got, want);
	return 0;
}
