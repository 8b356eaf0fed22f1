// SPDX-License-Identifier: GPL-2.0-only
/*
 * class_const corpus test: /dev/MODULE has mode 0666 (the class's devnode()), the class
 * attribute /sys/class/MODULE/info reads "info", and the device's uevent has CC_CORPUS=1 (the
 * class's dev_uevent()).
 */
static int test_class_const(const char *mod, char *why, size_t len)
{
	char path[192], got[512] = "";
	struct stat st;
	int tries;

	snprintf(path, sizeof(path), "/dev/%s", mod);
	for (tries = 0; tries < 50 && stat(path, &st); tries++)
		usleep(100000);
	if (stat(path, &st))
		return cc_fail(why, len, "no %s: %s", path, strerror(errno));
	if ((st.st_mode & 0777) != 0666)
		return cc_fail(why, len, "%s has mode %o, want 666", path, st.st_mode & 0777);
	snprintf(path, sizeof(path), "/sys/class/%s/info", mod);
	if (cc_read_file(path, got, sizeof(got)) < 0 || strcmp(got, "info\n"))
		return cc_fail(why, len, "%s read '%s' (%s), want 'info'", path, got, strerror(errno));
	snprintf(path, sizeof(path), "/sys/class/%s/%s/uevent", mod, mod);
	if (cc_read_file(path, got, sizeof(got)) < 0 || !strstr(got, "CC_CORPUS=1"))
		return cc_fail(why, len, "%s has no CC_CORPUS=1: '%s'", path, got);
	return 0;
}
