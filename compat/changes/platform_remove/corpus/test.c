// SPDX-License-Identifier: GPL-2.0-only
/*
 * platform_remove corpus test: unbinding MODULE's platform device from its driver runs the
 * remove callback (/sys/module/MODULE/parameters/removed goes from 0 to 1); it is bound again.
 */
static int cc_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int test_platform_remove(const char *mod, char *why, size_t len)
{
	char path[192], got[32] = "";

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/removed", mod);
	if (cc_read_file(path, got, sizeof(got)) < 0 || strcmp(got, "0\n"))
		return cc_fail(why, len, "%s read '%s' (%s) before the unbind, want 0", path, got,
			       strerror(errno));
	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/%s/unbind", mod);
	if (cc_write_file(path, mod))
		return cc_fail(why, len, "unbind through %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "/sys/module/%s/parameters/removed", mod);
	if (cc_read_file(path, got, sizeof(got)) < 0 || strcmp(got, "1\n"))
		return cc_fail(why, len, "%s read '%s' after the unbind, want 1", path, got);
	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/%s/bind", mod);
	if (cc_write_file(path, mod))
		return cc_fail(why, len, "bind again through %s: %s", path, strerror(errno));
	return 0;
}
