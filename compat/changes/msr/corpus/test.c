// SPDX-License-Identifier: GPL-2.0-only
/* msr corpus test: /dev/MODULE reads CPU 0's local APIC base, enabled (bit 11). */
static int test_msr(const char *mod, char *why, size_t len)
{
	char got[128] = "";
	unsigned long long base = 0;
	int err = -1;

	if (cc_read_dev(mod, got, sizeof(got)) < 0)
		return cc_fail(why, len, "read /dev/%s: %s", mod, strerror(errno));
	if (sscanf(got, "err=%d apic_base=%llx", &err, &base) != 2 || err || !(base & 0x800))
		return cc_fail(why, len, "read '%s', want err=0 and an enabled APIC base", got);
	return 0;
}
