// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev-shim-test - userspace side of the cdev_shim test devices, for the guest tests.
 *
 *   cdev-shim-test whoami PATH
 *	prints the CDEV_SHIM_IOC_WHOAMI answer: dev=NAME major=M minor=m index=i cdev_compat=0|1
 *   cdev-shim-test register MAJOR BASEMINOR COUNT NODES [faulty]
 *	registers a test region through /dev/cdev_shim_ctl; prints id=N major=M minor=m, or
 *	error=ENAME and exits 1; with "faulty", sets /proc/self/make-it-fail just before the
 *	ioctl, so that armed fault injection hits the registration path and nothing else
 *   cdev-shim-test register-readonly MAJOR BASEMINOR COUNT NODES
 *	the same request from a read-only page, so the driver cannot write the answer back:
 *	prints error=EFAULT (and the region must not stay registered)
 *   cdev-shim-test faultloop MAJOR BASEMINOR COUNT NODES ATTEMPTS
 *	sets /proc/self/make-it-fail, then tries ATTEMPTS registrations (each success is
 *	unregistered at once); prints attempts=N ok=N enomem=N other=N, and exits 1 if any
 *	attempt failed with another errno than ENOMEM (named on stderr)
 *   cdev-shim-test unregister ID
 *   cdev-shim-test reuse ID UNREGISTER_FIRST [alt]
 *	registers test region ID's handle again (CDEV_SHIM_IOC_REUSE): after unregistering it
 *	when UNREGISTER_FIRST is 1, while it is registered when 0; with "alt", with the
 *	alternate file operations (reads name the device cdev_shim_alt); prints ok, or
 *	error=ENAME and exits 1
 *   cdev-shim-test reuse-open ID OLD NEW
 *	opens OLD (a node of region ID), registers ID again with the alternate file operations
 *	while that file is open, then reads the old file, a second open of OLD (whose inode
 *	still points at the old cdev) and an open of NEW (a node of the same device number not
 *	opened before): prints reuse=ok|ENAME old=NAME old_reopen=NAME new=NAME (the dev= of
 *	each read)
 *   cdev-shim-test failnth-once N redirect|reuse [ID]
 *	fails the N-th fault-injection point of one call: registering the redirect device
 *	(CDEV_SHIM_IOC_REDIRECT 1, after unregistering it) or test region ID's handle again
 *	(REUSE after unregistering); prints fired=0|1 result=ok|ENAME
 *   cdev-shim-test race PATH ROUNDS redirect|reuse [ID]
 *	two threads, on CPUs 0 and 1: one opens, reads and closes PATH as fast as it can, the
 *	other, as soon as a file is open, unregisters and registers the redirect device (or test
 *	region ID's handle) again, ROUNDS times, so the read and the close (often the last of its
 *	registration) race the re-registration (each open through a node of its own); prints
 *	rounds=N reregister_errors=N opens=N
 *	reads_ok=N open_enxio=N other=N, and exits 1 on a failed re-registration or an errno
 *	other than ENXIO/ENODEV
 *   cdev-shim-test redirect 0|1
 *	unregisters (0) or registers (1) the redirect device at run time; prints major=M, or
 *	error=ENAME and exits 1
 *   cdev-shim-test bench PATH ITERATIONS
 *	prints open_close_ns=X read1_ns=Y (per operation, averaged over ITERATIONS)
 *   cdev-shim-test stress PATH THREADS ITERATIONS
 *	THREADS threads each open+read+close ITERATIONS times; errors are counted, not fatal
 *	(the module may be going away); prints ok=N enxio=N enodev=N enoent=N other=N
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cdev_shim_ioctl.h"

static const char *errname(int e)
{
	switch (e) {
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case ENOSPC: return "ENOSPC";
	case ENOENT: return "ENOENT";
	case ENXIO: return "ENXIO";
	case ENODEV: return "ENODEV";
	case EEXIST: return "EEXIST";
	case EPERM: return "EPERM";
	case E2BIG: return "E2BIG";
	case EFAULT: return "EFAULT";
	default: return "OTHER";
	}
}

static unsigned long num(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "cdev-shim-test: not a number: '%s'\n", s);
		exit(2);
	}
	return v;
}

static int ctl_fd(void)
{
	int fd = open("/dev/cdev_shim_ctl", O_RDWR);

	if (fd < 0) {
		perror("cdev-shim-test: /dev/cdev_shim_ctl");
		exit(2);
	}
	return fd;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmd_whoami(const char *path)
{
	struct cdev_shim_whoami who;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		printf("error=%s\n", errname(errno));
		return 1;
	}
	if (ioctl(fd, CDEV_SHIM_IOC_WHOAMI, &who)) {
		printf("error=%s\n", errname(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("dev=%.32s major=%u minor=%u index=%u cdev_compat=%u\n", who.name,
	       who.major, who.minor, who.index, who.served_by_cdev_compat);
	return 0;
}

static void make_it_fail(void)
{
	int fd = open("/proc/self/make-it-fail", O_WRONLY);

	if (fd < 0 || write(fd, "1", 1) != 1) {
		perror("cdev-shim-test: /proc/self/make-it-fail");
		exit(2);
	}
	close(fd);
}

static int cmd_register(char **argv, int faulty)
{
	struct cdev_shim_region_req req = {
		.major = num(argv[0]), .baseminor = num(argv[1]),
		.count = num(argv[2]), .nodes = num(argv[3]),
	};
	int fd = ctl_fd();

	if (faulty)
		make_it_fail();
	if (ioctl(fd, CDEV_SHIM_IOC_REGISTER, &req)) {
		printf("error=%s\n", errname(errno));
		return 1;
	}
	printf("id=%u major=%u minor=%u\n", req.id, req.first_major, req.first_minor);
	return 0;
}

static int cmd_register_readonly(char **argv)
{
	struct cdev_shim_region_req *req;
	int fd = ctl_fd();

	req = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (req == MAP_FAILED) {
		perror("cdev-shim-test: mmap");
		return 2;
	}
	req->major = num(argv[0]);
	req->baseminor = num(argv[1]);
	req->count = num(argv[2]);
	req->nodes = num(argv[3]);
	if (mprotect(req, 4096, PROT_READ)) {
		perror("cdev-shim-test: mprotect");
		return 2;
	}
	if (ioctl(fd, CDEV_SHIM_IOC_REGISTER, req)) {
		printf("error=%s\n", errname(errno));
		return 1;
	}
	printf("registered from a read-only page\n");
	return 0;
}

static int cmd_faultloop(char **argv)
{
	struct cdev_shim_region_req req;
	unsigned long attempts = num(argv[4]), i, ok = 0, enomem = 0, other = 0;
	int fd = ctl_fd();

	make_it_fail();
	for (i = 0; i < attempts; i++) {
		memset(&req, 0, sizeof(req));
		req.major = num(argv[0]);
		req.baseminor = num(argv[1]);
		req.count = num(argv[2]);
		req.nodes = num(argv[3]);
		if (!ioctl(fd, CDEV_SHIM_IOC_REGISTER, &req)) {
			ok++;
			if (ioctl(fd, CDEV_SHIM_IOC_UNREGISTER, &req.id)) {
				fprintf(stderr, "unregister %u: %s\n", req.id, errname(errno));
				other++;
			}
		} else if (errno == ENOMEM) {
			enomem++;
		} else {
			fprintf(stderr, "register: %s (%d)\n", errname(errno), errno);
			other++;
		}
	}
	printf("attempts=%lu ok=%lu enomem=%lu other=%lu\n", attempts, ok, enomem, other);
	return other ? 1 : 0;
}

static int cmd_unregister(const char *id_s)
{
	__u32 id = num(id_s);
	int fd = ctl_fd();

	if (ioctl(fd, CDEV_SHIM_IOC_UNREGISTER, &id)) {
		printf("error=%s\n", errname(errno));
		return 1;
	}
	return 0;
}

static int cmd_reuse(const char *id_s, const char *unreg_s, int alt)
{
	struct cdev_shim_reuse_req req = {
		.id = num(id_s), .unregister_first = num(unreg_s), .alt_fops = alt,
	};
	int fd = ctl_fd();

	if (ioctl(fd, CDEV_SHIM_IOC_REUSE, &req)) {
		printf("error=%s\n", errname(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}

/* read_dev FD - the NAME of the "dev=NAME ..." line a test device's read() returns. */
static const char *read_dev(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);
	char *end;

	if (n < 0)
		n = read(fd, buf, len - 1);
	if (n <= 0 || strncmp(buf, "dev=", 4))
		return n < 0 ? errname(errno) : "none";
	buf[n] = '\0';
	end = strchr(buf, ' ');
	if (end)
		*end = '\0';
	return buf + 4;
}

static int cmd_reuse_open(const char *id_s, const char *old_path, const char *new_path)
{
	struct cdev_shim_reuse_req req = { .id = num(id_s), .unregister_first = 1, .alt_fops = 1 };
	char oldbuf[128], rebuf[128], newbuf[128];
	const char *reuse = "ok", *old, *reopen, *new;
	int ctl = ctl_fd(), fd, fd2;

	fd = open(old_path, O_RDONLY);
	if (fd < 0) {
		printf("error=%s\n", errname(errno));
		return 1;
	}
	if (ioctl(ctl, CDEV_SHIM_IOC_REUSE, &req))
		reuse = errname(errno);
	old = read_dev(fd, oldbuf, sizeof(oldbuf));
	fd2 = open(old_path, O_RDONLY);
	reopen = fd2 < 0 ? errname(errno) : read_dev(fd2, rebuf, sizeof(rebuf));
	if (fd2 >= 0)
		close(fd2);
	fd2 = open(new_path, O_RDONLY);
	new = fd2 < 0 ? errname(errno) : read_dev(fd2, newbuf, sizeof(newbuf));
	if (fd2 >= 0)
		close(fd2);
	close(fd);
	printf("reuse=%s old=%s old_reopen=%s new=%s\n", reuse, old, reopen, new);
	return 0;
}

/*
 * This thread's fail-nth, opened once (as Documentation/fault-injection shows): write N to
 * fail the N-th fault-injection point from then on; pread() tells what is left of it (0: it
 * fired). The file cannot seek.
 */
static int fail_nth_fd = -1;

static unsigned long fail_nth(unsigned long n)
{
	char buf[32];
	unsigned long left;
	ssize_t len;

	if (fail_nth_fd < 0)
		fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth_fd < 0 || (len = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0)) < 0) {
		perror("cdev-shim-test: /proc/thread-self/fail-nth");
		exit(2);
	}
	buf[len] = '\0';
	left = strtoul(buf, NULL, 10);
	len = snprintf(buf, sizeof(buf), "%lu", n);
	if (write(fail_nth_fd, buf, len) != len) {
		perror("cdev-shim-test: /proc/thread-self/fail-nth");
		exit(2);
	}
	return left;
}

/*
 * Fail the n-th fault-injection point of registering handle @id again, for n = 1, 2, ...
 * until a registration passes every point: each failure must be ENOMEM, and the same handle
 * must register again at once, without a fault (a failed cdev_add() must not leave it
 * "in use"). Prints the points, the ENOMEMs, the handles left stuck and other errnos.
 */
static int cmd_failnth_reuse(const char *id_s)
{
	struct cdev_shim_reuse_req req = { .id = num(id_s), .unregister_first = 1 };
	unsigned long n, enomem = 0, stuck = 0, other = 0;
	int fd = ctl_fd(), ret, err;

	for (n = 1; n < 64; n++) {
		fail_nth(n);
		ret = ioctl(fd, CDEV_SHIM_IOC_REUSE, &req);
		err = errno;
		if (fail_nth(0)) {
			if (ret)
				other++;
			break;
		}
		if (!ret)
			continue;
		if (err != ENOMEM) {
			fprintf(stderr, "point %lu: %s\n", n, errname(err));
			other++;
		} else {
			enomem++;
		}
		if (ioctl(fd, CDEV_SHIM_IOC_REUSE, &req)) {
			fprintf(stderr, "point %lu: the handle does not register again: %s\n",
				n, errname(errno));
			stuck++;
		}
	}
	printf("points=%lu enomem=%lu stuck=%lu other=%lu\n", n - 1, enomem, stuck, other);
	return stuck || other ? 1 : 0;
}

static int cmd_redirect(const char *on_s)
{
	__u32 on = num(on_s);
	int fd = ctl_fd(), ret;

	ret = ioctl(fd, CDEV_SHIM_IOC_REDIRECT, &on);
	if (ret < 0) {
		printf("error=%s\n", errname(errno));
		return 1;
	}
	printf("major=%d\n", ret);
	return 0;
}

/*
 * One call with its N-th fault-injection point failed: registering the redirect device again
 * (after unregistering it) or test region @id's handle again (REUSE after unregistering).
 */
static int cmd_failnth_once(unsigned long n, const char *what, const char *id_s)
{
	struct cdev_shim_reuse_req req = { .unregister_first = 1 };
	__u32 off = 0, on = 1;
	int fd = ctl_fd(), ret, err;
	unsigned long left;

	if (!strcmp(what, "redirect")) {
		if (ioctl(fd, CDEV_SHIM_IOC_REDIRECT, &off) < 0) {
			printf("error=%s\n", errname(errno));
			return 1;
		}
		fail_nth(n);
		ret = ioctl(fd, CDEV_SHIM_IOC_REDIRECT, &on);
	} else if (!strcmp(what, "reuse") && id_s) {
		req.id = num(id_s);
		fail_nth(n);
		ret = ioctl(fd, CDEV_SHIM_IOC_REUSE, &req);
	} else {
		fprintf(stderr, "cdev-shim-test: failnth-once N redirect|reuse ID\n");
		return 2;
	}
	err = errno;
	left = fail_nth(0);
	printf("fired=%d result=%s\n", left == 0, ret < 0 ? errname(err) : "ok");
	return 0;
}

struct race {
	const char *path;
	dev_t dev;
	volatile int stop;
	volatile unsigned long opened;
	unsigned long opens, reads_ok, enxio, other;
};

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("cdev-shim-test: sched_setaffinity");
}

/*
 * Open, say so, read and close: the other thread unregisters and registers again as soon as
 * a file is open, so the read and the close (often the last of its registration) run against
 * that. Each open is through a node made for it: an inode keeps pointing at the cdev of the
 * registration it was opened through until the kernel has released that cdev (seconds later
 * with CONFIG_DEBUG_KOBJECT_RELEASE), and opens through it fail until then.
 */
static void *race_opener(void *arg)
{
	struct race *r = arg;
	char buf[128], node[256];
	int fd;

	pin_to(1);
	snprintf(node, sizeof(node), "%s.race", r->path);
	while (!r->stop) {
		unlink(node);
		if (mknod(node, S_IFCHR | 0600, r->dev)) {
			r->other++;
			break;
		}
		fd = open(node, O_RDONLY);
		if (fd < 0) {
			if (errno == ENXIO || errno == ENODEV)
				r->enxio++;
			else
				r->other++;
			continue;
		}
		r->opens++;
		__atomic_store_n(&r->opened, r->opens, __ATOMIC_RELEASE);
		if (read(fd, buf, sizeof(buf)) > 0)
			r->reads_ok++;
		close(fd);
	}
	unlink(node);
	return NULL;
}

/*
 * Wait up to about 20 ms for the opener's next open (it may not get one in: ENXIO). The cap
 * bounds a round where the opener is slow (TCG, KASAN, a second guest on the same cores):
 * the opener keeps opening and closing, so a round that stops waiting still races it.
 */
static void race_wait_open(struct race *r, unsigned long *seen)
{
	double until = now_ns() + 20e6;

	while (__atomic_load_n(&r->opened, __ATOMIC_ACQUIRE) == *seen && now_ns() < until)
		sched_yield();
	*seen = __atomic_load_n(&r->opened, __ATOMIC_ACQUIRE);
}

static int cmd_race(const char *path, unsigned long rounds, const char *what, const char *id_s)
{
	struct cdev_shim_reuse_req req = { .unregister_first = 1 };
	struct race r = { .path = path };
	unsigned long i, errors = 0, seen = 0;
	double t0 = now_ns();
	__u32 off = 0, on = 1;
	int fd = ctl_fd(), redirect = !strcmp(what, "redirect");
	struct stat st;
	pthread_t tid;

	if (stat(path, &st) || !S_ISCHR(st.st_mode)) {
		fprintf(stderr, "cdev-shim-test: %s is not a char device node\n", path);
		return 2;
	}
	r.dev = st.st_rdev;

	if (!redirect) {
		if (strcmp(what, "reuse") || !id_s) {
			fprintf(stderr, "cdev-shim-test: race PATH ROUNDS redirect|reuse ID\n");
			return 2;
		}
		req.id = num(id_s);
	}
	pin_to(0);
	if (pthread_create(&tid, NULL, race_opener, &r))
		return 2;
	for (i = 0; i < rounds; i++) {
		race_wait_open(&r, &seen);
		if (redirect) {
			if (ioctl(fd, CDEV_SHIM_IOC_REDIRECT, &off) < 0 ||
			    ioctl(fd, CDEV_SHIM_IOC_REDIRECT, &on) < 0)
				errors++;
		} else if (ioctl(fd, CDEV_SHIM_IOC_REUSE, &req)) {
			errors++;
		}
	}
	r.stop = 1;
	pthread_join(tid, NULL);
	printf("rounds=%lu reregister_errors=%lu opens=%lu reads_ok=%lu open_enxio=%lu other=%lu seconds=%.1f\n",
	       rounds, errors, r.opens, r.reads_ok, r.enxio, r.other, (now_ns() - t0) / 1e9);
	return errors || r.other ? 1 : 0;
}

static int cmd_bench(const char *path, unsigned long n)
{
	double t0, t1, t2;
	unsigned long i;
	char c;
	int fd;

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			perror(path);
			return 1;
		}
		close(fd);
	}
	t1 = now_ns();
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (pread(fd, &c, 1, 0) != 1) {
			perror("pread");
			return 1;
		}
	}
	t2 = now_ns();
	close(fd);
	printf("open_close_ns=%.0f read1_ns=%.0f\n", (t1 - t0) / n, (t2 - t1) / n);
	return 0;
}

struct stress {
	const char *path;
	unsigned long iterations;
	unsigned long ok, enxio, enodev, enoent, other;
};

static void *stress_thread(void *arg)
{
	struct stress *s = arg;
	unsigned long i;
	char buf[128];
	int fd;

	for (i = 0; i < s->iterations; i++) {
		fd = open(s->path, O_RDONLY);
		if (fd < 0) {
			if (errno == ENXIO)
				s->enxio++;
			else if (errno == ENODEV)
				s->enodev++;
			else if (errno == ENOENT)
				s->enoent++;
			else
				s->other++;
			continue;
		}
		if (read(fd, buf, sizeof(buf)) < 0)
			s->other++;
		else
			s->ok++;
		close(fd);
	}
	return NULL;
}

static int cmd_stress(const char *path, unsigned long threads, unsigned long n)
{
	struct stress *s = calloc(threads, sizeof(*s));
	pthread_t *tid = calloc(threads, sizeof(*tid));
	struct stress sum = { 0 };
	unsigned long i;

	if (!s || !tid || !threads)
		return 2;
	for (i = 0; i < threads; i++) {
		s[i].path = path;
		s[i].iterations = n;
		if (pthread_create(&tid[i], NULL, stress_thread, &s[i]))
			return 2;
	}
	for (i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		sum.ok += s[i].ok;
		sum.enxio += s[i].enxio;
		sum.enodev += s[i].enodev;
		sum.enoent += s[i].enoent;
		sum.other += s[i].other;
	}
	printf("ok=%lu enxio=%lu enodev=%lu enoent=%lu other=%lu\n", sum.ok, sum.enxio,
	       sum.enodev, sum.enoent, sum.other);
	return sum.other ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "whoami"))
		return cmd_whoami(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "register"))
		return cmd_register(argv + 2, 0);
	if (argc == 7 && !strcmp(argv[1], "register") && !strcmp(argv[6], "faulty"))
		return cmd_register(argv + 2, 1);
	if (argc == 6 && !strcmp(argv[1], "register-readonly"))
		return cmd_register_readonly(argv + 2);
	if (argc == 7 && !strcmp(argv[1], "faultloop"))
		return cmd_faultloop(argv + 2);
	if (argc == 3 && !strcmp(argv[1], "unregister"))
		return cmd_unregister(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "reuse"))
		return cmd_reuse(argv[2], argv[3], 0);
	if (argc == 5 && !strcmp(argv[1], "reuse") && !strcmp(argv[4], "alt"))
		return cmd_reuse(argv[2], argv[3], 1);
	if (argc == 5 && !strcmp(argv[1], "reuse-open"))
		return cmd_reuse_open(argv[2], argv[3], argv[4]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "failnth-once"))
		return cmd_failnth_once(num(argv[2]), argv[3], argc == 5 ? argv[4] : NULL);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "race"))
		return cmd_race(argv[2], num(argv[3]), argv[4], argc == 6 ? argv[5] : NULL);
	if (argc == 3 && !strcmp(argv[1], "failnth-reuse"))
		return cmd_failnth_reuse(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "redirect"))
		return cmd_redirect(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "bench"))
		return cmd_bench(argv[2], num(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "stress"))
		return cmd_stress(argv[2], num(argv[3]), num(argv[4]));
	fprintf(stderr, "usage: cdev-shim-test whoami PATH | register MAJOR BASEMINOR COUNT NODES [faulty] |\n"
		"       register-readonly MAJOR BASEMINOR COUNT NODES |\n"
		"       faultloop MAJOR BASEMINOR COUNT NODES ATTEMPTS |\n"
		"       unregister ID | reuse ID 0|1 [alt] | reuse-open ID OLD NEW |\n"
		"       failnth-reuse ID | failnth-once N redirect|reuse [ID] | redirect 0|1 |\n"
		"       race PATH ROUNDS redirect|reuse [ID] |\n"
		"       bench PATH N |\n"
		"       stress PATH THREADS N\n");
	return 2;
}
