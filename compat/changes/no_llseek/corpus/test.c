// SPDX-License-Identifier: GPL-2.0-only
/* no_llseek corpus test: lseek() on /dev/MODULE fails with ESPIPE. */
static int test_no_llseek(const char *mod, char *why, size_t len)
{
	int fd = cc_open_dev(mod, O_RDONLY);
	off_t off;
	int err;

	if (fd < 0)
		return cc_fail(why, len, "open /dev/%s: %s", mod, strerror(errno));
	off = lseek(fd, 1, SEEK_SET);
	err = errno;
	close(fd);
	if (off != -1 || err != ESPIPE)
		return cc_fail(why, len, "lseek returned %lld (%s), want ESPIPE", (long long)off,
			       off == -1 ? strerror(err) : "no error");
	return 0;
}
