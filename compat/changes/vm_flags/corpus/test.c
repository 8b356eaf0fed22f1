// SPDX-License-Identifier: GPL-2.0-only
/* vm_flags corpus test: a read-only mapping of /dev/MODULE shows 0xcc bytes; a shared writable one is refused. */
static int test_vm_flags(const char *mod, char *why, size_t len)
{
	int fd = cc_open_dev(mod, O_RDWR);
	unsigned char *p;
	int ok;

	if (fd < 0)
		return cc_fail(why, len, "open /dev/%s: %s", mod, strerror(errno));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return cc_fail(why, len, "mmap: %s", strerror(errno));
	}
	ok = p[0] == 0xcc && p[4095] == 0xcc;
	munmap(p, 4096);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (!ok)
		return cc_fail(why, len, "the mapping does not show the page's 0xcc bytes");
	if (p != MAP_FAILED) {
		munmap(p, 4096);
		return cc_fail(why, len, "a writable mapping was not refused");
	}
	return 0;
}
