// SPDX-License-Identifier: GPL-2.0-only
/* eventfd_signal corpus test: an eventfd handed to /dev/MODULE (ioctl 0xcc01) reads 1. */
static int test_eventfd_signal(const char *mod, char *why, size_t len)
{
	int fd = cc_open_dev(mod, O_RDONLY), efd = eventfd(0, EFD_NONBLOCK);
	uint64_t count = 0;
	ssize_t n;

	if (fd < 0 || efd < 0)
		return cc_fail(why, len, "open /dev/%s or eventfd: %s", mod, strerror(errno));
	if (ioctl(fd, 0xcc01, (unsigned long)efd)) {
		close(fd);
		close(efd);
		return cc_fail(why, len, "ioctl: %s", strerror(errno));
	}
	n = read(efd, &count, sizeof(count));
	close(fd);
	close(efd);
	if (n != sizeof(count) || count != 1)
		return cc_fail(why, len, "the eventfd read %zd bytes, count %llu; want 1", n,
			       (unsigned long long)count);
	return 0;
}
