// SPDX-License-Identifier: GPL-2.0-only
/*
 * corpus-test - the guest test of the migration corpus (tests.d/75-migrated-corpus.sh, which
 * says what it checks), in one process. The same checks as shell commands ran some 60
 * programs per load of a driver (awk, sort, comm, mknod, head, insmod, rmmod); under TCG each
 * costs 50-150 ms, more than the loads themselves. Here a load is finit_module(), an unload
 * delete_module(), as insmod and rmmod do them.
 *
 * An unload runs in a child, and the next driver loads while it finishes: delete_module()
 * returns only when the module's kobject is released, which CONFIG_DEBUG_KOBJECT_RELEASE
 * (the 6.1 debug one-arg kernel) delays by 1-4 s, twice when a cdev of the module holds the
 * module's kobject (the cdev's release drops it, itself 1-4 s late): some 5 s an unload, two
 * minutes of waiting over the corpus. The driver's exit has run before that wait, so the
 * checks after the unload run as soon as /proc/devices is as before; the unload's result
 * follows when its delete_module() returns (at the latest before the same module loads
 * again, the loads going driver by driver through the first load lines, then the second).
 *
 *   corpus-test LEGACY NODES
 *	LEGACY: the image's legacy-drivers directory (corpus-manifest, VARIANT/status,
 *	VARIANT/MODULE.ko, VARIANT/MODULE.spec, VARIANT/build.log); NODES: a directory for
 *	the device nodes it makes (made, and removed at the end)
 *
 * Prints what lib/ktap.sh prints for a test script: the plan, "ok N NAME", "# NAME: WHY"
 * before "not ok N NAME", "# ..." diagnostics, and the "# ktap-done:" trailer; exits 0 when
 * no result failed, 1 when one did, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVS 512
#define MAX_LINES 64
#define LINE_LEN 512
#define FREE_FROM 234
#define FREE_TO 254
#define MAX_PENDING 32

struct chrdev {
	unsigned int major;
	char name[64];
};

struct devlist {
	int n;
	struct chrdev d[MAX_DEVS];
};

/* A driver's spec: its "KEY REST" lines, KEY one of load, chrdev, read, noopen, node. */
struct spec {
	int n;
	char key[MAX_LINES][16];
	char rest[MAX_LINES][LINE_LEN];
};

static int results, failed;

/* fmt - snprintf into a buffer that must not overflow; what does not fit is cut. */
static void fmt(char *out, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(out, len, f, ap);
	va_end(ap);
}

/* append - fmt at the end of the string in out. */
static void append(char *out, size_t len, const char *f, ...)
{
	size_t used = strlen(out);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, f);
	vsnprintf(out + used, len - used, f, ap);
	va_end(ap);
}

static void ktap_ok(const char *name)
{
	printf("ok %d %s\n", ++results, name);
}

static void ktap_fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		printf("# %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
	failed++;
	printf("not ok %d %s\n", ++results, name);
}

static void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* chrdevs - the "Character devices" part of /proc/devices, in the kernel's order. */
static int chrdevs(struct devlist *l)
{
	char line[256];
	int on = 0;
	FILE *f = fopen("/proc/devices", "re");

	l->n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Character devices:", 18)) {
			on = 1;
			continue;
		}
		if (line[0] == '\n')
			on = 0;
		if (on && l->n < MAX_DEVS &&
		    sscanf(line, "%u %63s", &l->d[l->n].major, l->d[l->n].name) == 2)
			l->n++;
	}
	fclose(f);
	return 0;
}

static int has(const struct devlist *l, const struct chrdev *c)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i].major == c->major && !strcmp(l->d[i].name, c->name))
			return 1;
	return 0;
}

/* diff - "+major name;" for what b has and a has not, "-major name;" the other way. */
static void diff(const struct devlist *a, const struct devlist *b, char *out, size_t len)
{
	int i;

	out[0] = '\0';
	for (i = 0; i < b->n; i++)
		if (!has(a, &b->d[i]))
			append(out, len, "+%u %s;", b->d[i].major, b->d[i].name);
	for (i = 0; i < a->n; i++)
		if (!has(b, &a->d[i]))
			append(out, len, "-%u %s;", a->d[i].major, a->d[i].name);
}

/* major_of - the first major /proc/devices lists for name, 0 if none. */
static unsigned int major_of(const char *name)
{
	static struct devlist l;
	int i;

	chrdevs(&l);
	for (i = 0; i < l.n; i++)
		if (!strcmp(l.d[i].name, name))
			return l.d[i].major;
	return 0;
}

static int read_spec(const char *path, struct spec *s)
{
	char line[LINE_LEN + 32], *p;
	FILE *f = fopen(path, "re");

	s->n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && s->n < MAX_LINES) {
		line[strcspn(line, "\n")] = '\0';
		p = line + strcspn(line, " \t");
		if (p - line >= (int)sizeof(s->key[0]))
			continue;
		memcpy(s->key[s->n], line, p - line);
		s->key[s->n][p - line] = '\0';
		p += strspn(p, " \t");
		fmt(s->rest[s->n], LINE_LEN, "%s", p);
		/* trailing blanks, as the shell's read drops them */
		for (p = s->rest[s->n] + strlen(s->rest[s->n]); p > s->rest[s->n] && (p[-1] == ' ' || p[-1] == '\t');)
			*--p = '\0';
		s->n++;
	}
	fclose(f);
	return 0;
}

static int count_key(const struct spec *s, const char *key)
{
	int i, n = 0;

	for (i = 0; i < s->n; i++)
		n += !strcmp(s->key[i], key);
	return n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sorted_words - the blank-separated words of in, sorted, each followed by a blank. */
static void sorted_words(const char *in, char *out, size_t len)
{
	char buf[LINE_LEN], *w[64], *save = NULL, *t;
	int n = 0, i;

	fmt(buf, sizeof(buf), "%s", in);
	for (t = strtok_r(buf, " \t", &save); t && n < 64; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	qsort(w, n, sizeof(w[0]), cmp_str);
	out[0] = '\0';
	for (i = 0; i < n; i++)
		append(out, len, "%s ", w[i]);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * open_line - the first line path reads (at most 5 s): 0, or -1 with errno set when it does
 * not open or its read fails (as "head -n1" fails then).
 */
static int open_line(const char *path, char *line, size_t len)
{
	ssize_t n;
	int fd, err;

	alarm(5);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		alarm(0);
		errno = err;
		return -1;
	}
	n = read(fd, line, len - 1);
	err = errno;
	alarm(0);
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	return 0;
}

/* now_ms - CLOCK_MONOTONIC in milliseconds. */
static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* wait_chr - poll every 10 ms, up to 5 s, until path is a character device (want 1) or gone (want 0). */
static int wait_chr(const char *path, int want, struct stat *st)
{
	int i, there;

	for (i = 0; i < 500; i++) {
		there = !stat(path, st);
		if (want ? there && S_ISCHR(st->st_mode) : !there)
			return 0;
		sleep_ms(10);
	}
	return -1;
}

/* An unload still running in a child; its result is printed when the child is reaped. */
struct pending {
	pid_t pid;
	int reaped, status;
	long t0;
	char m[128];
	char t[300];
	char why[LINE_LEN];
};

static struct pending pend[MAX_PENDING];
static int npend;

/* reap_one - wait for pend[i]'s delete_module(), print its test's result, drop the entry. */
static void reap_one(int i)
{
	struct pending *p = &pend[i];
	int err;

	while (!p->reaped && waitpid(p->pid, &p->status, 0) < 0 && errno == EINTR)
		;
	err = WIFEXITED(p->status) ? WEXITSTATUS(p->status) : -1;
	ktap_diag("rmmod %s returned after %ld ms", p->m, now_ms() - p->t0);
	if (err)
		ktap_fail(p->t, "rmmod %s failed: %s", p->m,
			  err > 0 ? strerror(err) : "its child did not exit");
	else if (p->why[0])
		ktap_fail(p->t, "%s", p->why);
	else
		ktap_ok(p->t);
	pend[i] = pend[--npend];
}

/* reap - wait for the pending unload of module m, if any (m NULL: for every pending one). */
static void reap(const char *m)
{
	int i;

	for (i = npend - 1; i >= 0; i--)
		if (!m || !strcmp(pend[i].m, m))
			reap_one(i);
}

/*
 * unload_start - delete_module(m) in a child, the test t's result left pending; then poll,
 * every 10 ms for at most 30 s, until /proc/devices is as before (the driver's exit has run)
 * or the child has ended. after: /proc/devices then. NULL when no child could run it (t
 * has failed).
 */
static struct pending *unload_start(const char *m, const char *t, const struct devlist *before,
				    struct devlist *after)
{
	struct pending *p;
	char d[LINE_LEN];
	int i;

	if (npend == MAX_PENDING)
		reap(NULL);
	p = &pend[npend];
	memset(p, 0, sizeof(*p));
	fmt(p->m, sizeof(p->m), "%s", m);
	fmt(p->t, sizeof(p->t), "%s", t);
	p->t0 = now_ms();
	fflush(stdout);
	p->pid = fork();
	if (p->pid == 0)
		_exit(syscall(SYS_delete_module, m, O_NONBLOCK) ? errno : 0);
	if (p->pid < 0) {
		ktap_fail(t, "rmmod %s: fork: %s", m, strerror(errno));
		return NULL;
	}
	npend++;
	for (i = 0; i < 3000; i++) {
		chrdevs(after);
		diff(before, after, d, sizeof(d));
		if (!d[0])
			break;
		if (waitpid(p->pid, &p->status, WNOHANG) == p->pid) {
			p->reaped = 1;
			chrdevs(after);
			break;
		}
		sleep_ms(10);
	}
	return p;
}

/* make_node - a fresh character node at path. */
static int make_node(const char *path, unsigned int major, unsigned int minor)
{
	unlink(path);
	if (mknod(path, S_IFCHR | 0600, makedev(major, minor))) {
		ktap_diag("mknod %s c %u %u: %s", path, major, minor, strerror(errno));
		return -1;
	}
	return 0;
}

/* check_opens - the spec's read, noopen and node lines against the loaded driver. */
static int check_opens(const struct spec *s, const char *nodes)
{
	char name[64], dev[64], text[LINE_LEN], node[LINE_LEN], got[LINE_LEN];
	unsigned int major, minor;
	struct stat st;
	int i, rc = 0;

	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->key[i], "read")) {
			text[0] = '\0';
			if (sscanf(s->rest[i], "%63s %u %511[^\n]", name, &minor, text) < 2) {
				ktap_diag("spec: bad read line '%s'", s->rest[i]);
				rc = 1;
				continue;
			}
			major = major_of(name);
			if (!major) {
				ktap_diag("read: no %s in /proc/devices", name);
				rc = 1;
				continue;
			}
			fmt(node, sizeof(node), "%s/%s-%u", nodes, name, minor);
			if (make_node(node, major, minor)) {
				rc = 1;
			} else if (open_line(node, got, sizeof(got))) {
				ktap_diag("read %s (%u:%u): %s", node, major, minor, strerror(errno));
				rc = 1;
			} else if (strcmp(got, text)) {
				ktap_diag("read %s (%u:%u): '%s', want '%s'", node, major, minor, got, text);
				rc = 1;
			} else {
				ktap_diag("read %s (%u:%u): '%s'", node, major, minor, got);
			}
		} else if (!strcmp(s->key[i], "noopen")) {
			if (sscanf(s->rest[i], "%63s %u", name, &minor) != 2) {
				ktap_diag("spec: bad noopen line '%s'", s->rest[i]);
				rc = 1;
				continue;
			}
			major = major_of(name);
			fmt(node, sizeof(node), "%s/%s-%u-noopen", nodes, name, minor);
			if (make_node(node, major, minor)) {
				rc = 1;
				continue;
			}
			if (!open_line(node, got, sizeof(got))) {
				ktap_diag("noopen %s (%u:%u): opened, read '%s'", node, major, minor, got);
				rc = 1;
			} else {
				ktap_diag("noopen %s (%u:%u): %s", node, major, minor, strerror(errno));
			}
			unlink(node);
		} else if (!strcmp(s->key[i], "node")) {
			if (sscanf(s->rest[i], "%63s %63s %u", dev, name, &minor) != 3) {
				ktap_diag("spec: bad node line '%s'", s->rest[i]);
				rc = 1;
				continue;
			}
			major = major_of(name);
			fmt(node, sizeof(node), "/dev/%s", dev);
			if (wait_chr(node, 1, &st)) {
				ktap_diag("node %s did not appear", node);
				rc = 1;
				continue;
			}
			ktap_diag("node %s: %u:%u, want %u:%u", node, major(st.st_rdev), minor(st.st_rdev),
			     major, minor);
			if (st.st_rdev != makedev(major, minor))
				rc = 1;
		}
	}
	return rc;
}

/* check_unloaded - the driver's nodes gone, the read nodes made here no longer open. */
static int check_unloaded(const struct spec *s, const char *nodes)
{
	char name[64], dev[64], node[LINE_LEN], got[LINE_LEN];
	unsigned int minor;
	struct stat st;
	int i, rc = 0;

	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->key[i], "node") &&
		    sscanf(s->rest[i], "%63s %63s %u", dev, name, &minor) == 3) {
			fmt(node, sizeof(node), "/dev/%s", dev);
			if (wait_chr(node, 0, &st)) {
				ktap_diag("%s is still there", node);
				rc = 1;
			}
		} else if (!strcmp(s->key[i], "read") &&
			   sscanf(s->rest[i], "%63s %u", name, &minor) == 2) {
			fmt(node, sizeof(node), "%s/%s-%u", nodes, name, minor);
			if (lstat(node, &st))
				continue;
			/*
			 * Through a fresh inode: what must hold is that no cdev is mapped at the
			 * number any more. The old inode may still point at the driver's released
			 * cdev: the kernel clears inode->i_cdev in the cdev's release, which
			 * CONFIG_DEBUG_KOBJECT_RELEASE (the debug one-arg kernel) runs seconds
			 * later, and an open through it takes a reference on the unloaded owner:
			 * the kernel's own hazard for any register_chrdev() driver.
			 */
			if (make_node(node, major(st.st_rdev), minor(st.st_rdev))) {
				rc = 1;
				continue;
			}
			if (!open_line(node, got, sizeof(got))) {
				ktap_diag("%s opened after the unload and read '%s'", node, got);
				rc = 1;
			} else {
				ktap_diag("%s after the unload: %s", node, strerror(errno));
			}
			unlink(node);
		}
	}
	return rc;
}

/* free_major - a major in FREE_FROM..FREE_TO that /proc/devices does not list, 0 if none. */
static unsigned int free_major(void)
{
	static struct devlist l;
	unsigned int m;
	int i;

	chrdevs(&l);
	for (m = FREE_FROM; m <= FREE_TO; m++) {
		for (i = 0; i < l.n && l.d[i].major != m; i++)
			;
		if (i == l.n)
			return m;
	}
	return 0;
}

/* kernel_log_tail - the last lines of the kernel log, as diagnostics (after a failed load). */
static void kernel_log_tail(void)
{
	fflush(stdout);
	if (system("dmesg | tail -n 5 | sed 's/^/# /'"))
		ktap_diag("dmesg failed");
}

static void file_tail(const char *path, int lines)
{
	char cmd[LINE_LEN * 2];

	fflush(stdout);
	fmt(cmd, sizeof(cmd), "tail -n %d '%s' 2>/dev/null | sed 's/^/# /'", lines, path);
	if (system(cmd))
		ktap_diag("no %s", path);
}

/* status_of - what VARIANT/status says of MODULE (in out); 0 when it is "ok". */
static int status_of(const char *legacy, const char *v, const char *m, char *out, size_t len)
{
	char path[LINE_LEN], line[256], mod[128], st[64];
	FILE *f;

	fmt(out, len, "no status");
	fmt(path, sizeof(path), "%s/%s/status", legacy, v);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %63s", mod, st) == 2 && !strcmp(mod, m))
			fmt(out, len, "%s", st);
	fclose(f);
	return strcmp(out, "ok") ? -1 : 0;
}

/* remove_nodes - the nodes directory and what is left in it. */
static void remove_nodes(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	if (rmdir(dir))
		ktap_diag("rmdir %s: %s", dir, strerror(errno));
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static void test_name(char *out, size_t len, const char *v, const char *m, const char *suffix)
{
	char *p;

	fmt(out, len, "%s_%s%s", v, m, suffix);
	for (p = out; *p; p++)
		if (*p == '-')
			*p = '_';
}

/* one_load - one "load" line of a driver's spec: loads, registers, opens, unloads. */
static void one_load(const char *legacy, const char *nodes, const char *v, const char *m,
		     const struct spec *s, const char *load, int n)
{
	static struct devlist before, after;
	char tl[256], t[300], params[LINE_LEN], buf[LINE_LEN], *w, *save = NULL;
	char want[LINE_LEN], got[LINE_LEN], gained[2048], ko[LINE_LEN], taint[32] = "";
	struct pending *p;
	unsigned int fixed = 0;
	long t0, t1, t2, load_ms;
	int fd, i, err, rc;
	FILE *f;

	test_name(tl, sizeof(tl), v, m, "");
	append(tl, sizeof(tl), "_load%d", n);
	reap(m);

	/* Parameters: NAME=@free asks for a free major as a fixed one. */
	params[0] = '\0';
	fmt(buf, sizeof(buf), "%s", load);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t l = strlen(w);

		if (l > 6 && !strcmp(w + l - 6, "=@free")) {
			fixed = free_major();
			if (!fixed) {
				fmt(t, sizeof(t), "%s_loads", tl);
				ktap_fail(t, "no free major in %d..%d", FREE_FROM, FREE_TO);
				return;
			}
			append(params, sizeof(params), "%s%.*s=%u", params[0] ? " " : "",
			       (int)(l - 6), w, fixed);
		} else {
			append(params, sizeof(params), "%s%s", params[0] ? " " : "", w);
		}
	}
	ktap_diag("%s/%s.ko %s", v, m, params);

	chrdevs(&before);
	fmt(ko, sizeof(ko), "%s/%s/%s.ko", legacy, v, m);
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	t0 = now_ms();
	rc = fd < 0 ? -1 : syscall(SYS_finit_module, fd, params, 0);
	err = errno;
	load_ms = now_ms() - t0;
	if (fd >= 0)
		close(fd);
	fmt(t, sizeof(t), "%s_loads", tl);
	if (rc) {
		ktap_diag("insmod %s: %s", ko, strerror(err));
		kernel_log_tail();
		ktap_fail(t, "insmod %s/%s.ko %s failed", v, m, params);
		return;
	}
	fmt(buf, sizeof(buf), "/sys/module/%s/taint", m);
	f = fopen(buf, "re");
	if (f) {
		if (!fgets(taint, sizeof(taint), f))
			taint[0] = '\0';
		fclose(f);
		taint[strcspn(taint, "\n")] = '\0';
	}
	if (strchr(taint, 'O'))
		ktap_ok(t);
	else
		ktap_fail(t, "%s is '%s', want O (out-of-tree)", buf, taint);

	t2 = now_ms();
	/* registers: /proc/devices gained exactly the spec's names (and the fixed major). */
	fmt(t, sizeof(t), "%s_registers", tl);
	chrdevs(&after);
	gained[0] = '\0';
	buf[0] = '\0';
	for (i = 0; i < after.n; i++) {
		if (has(&before, &after.d[i]))
			continue;
		append(gained, sizeof(gained), "%u %s;", after.d[i].major, after.d[i].name);
		append(buf, sizeof(buf), "%s ", after.d[i].name);
	}
	for (i = 0; i < s->n && strcmp(s->key[i], "chrdev"); i++)
		;
	sorted_words(i < s->n ? s->rest[i] : "", want, sizeof(want));
	sorted_words(buf, got, sizeof(got));
	if (strcmp(got, want)) {
		ktap_fail(t, "/proc/devices gained '%s', want the names '%s'", gained, want);
	} else if (fixed) {
		for (i = 0; i < after.n; i++)
			if (after.d[i].major == fixed && !has(&before, &after.d[i]))
				break;
		if (i == after.n) {
			ktap_fail(t, "/proc/devices gained '%s', none on the fixed major %u", gained, fixed);
		} else {
			ktap_diag("gained %s", gained);
			ktap_ok(t);
		}
	} else {
		ktap_diag("gained %s", gained);
		ktap_ok(t);
	}

	fmt(t, sizeof(t), "%s_opens", tl);
	if (check_opens(s, nodes))
		ktap_fail(t, NULL);
	else
		ktap_ok(t);

	fmt(t, sizeof(t), "%s_unloads", tl);
	t1 = now_ms();
	p = unload_start(m, t, &before, &after);
	if (!p)
		return;
	t0 = now_ms() - t1;
	diff(&before, &after, gained, sizeof(gained));
	if (gained[0])
		fmt(p->why, sizeof(p->why), "/proc/devices now differs by '%s'", gained);
	else if (check_unloaded(s, nodes))
		fmt(p->why, sizeof(p->why), "something of %s is left after the unload", m);
	ktap_diag("times: load %ld ms, checks %ld ms, exit %ld ms, checks after it %ld ms",
		  load_ms, t1 - t2, t0, now_ms() - t1 - t0);
}

/* driver_builds - the "builds" result of a driver of the manifest; 0 and its spec in s if it built. */
static int driver_builds(const char *legacy, const char *v, const char *m, struct spec *s)
{
	char t[256], path[LINE_LEN], ko[LINE_LEN], log[LINE_LEN], status[64];

	test_name(t, sizeof(t), v, m, "_builds");
	fmt(path, sizeof(path), "%s/%s/%s.spec", legacy, v, m);
	fmt(ko, sizeof(ko), "%s/%s/%s.ko", legacy, v, m);
	if (status_of(legacy, v, m, status, sizeof(status)) || !exists(ko) ||
	    read_spec(path, s)) {
		fmt(log, sizeof(log), "%s/%s/build.log", legacy, v);
		file_tail(log, 30);
		ktap_fail(t, "the image build of %s/%s: %s; %s: %s; %s: %s", v, m, status, ko,
		       exists(ko) ? "there" : "missing", path, exists(path) ? "there" : "missing");
		return -1;
	}
	ktap_ok(t);
	return 0;
}

/* nth_load - the n-th (from 1) "load" line of s, NULL if it has fewer. */
static const char *nth_load(const struct spec *s, int n)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->key[i], "load") && !--n)
			return s->rest[i];
	return NULL;
}

/*
 * one_variant - the drivers of variant v (the manifest's entries vs, ms, n of them): each
 * one's builds; then the first load line of each driver that built, then the second, and so
 * on, so that a driver loads again only after the other drivers' loads (its pending unload
 * has mostly finished by then); then each one's "ran". specs: room for n specs.
 */
static void one_variant(const char *legacy, const char *nodes, const char *v,
			char (*vs)[64], char (*ms)[128], int n, struct spec *specs)
{
	char t[256], *built;
	const char *load;
	int i, k, more;

	built = calloc(n, 1);
	if (!built) {
		ktap_diag("out of memory");
		exit(1);
	}
	for (i = 0; i < n; i++)
		if (!strcmp(vs[i], v))
			built[i] = !driver_builds(legacy, v, ms[i], &specs[i]);
	for (k = 1, more = 1; more; k++) {
		more = 0;
		for (i = 0; i < n; i++) {
			if (!built[i])
				continue;
			load = nth_load(&specs[i], k);
			if (!load)
				continue;
			more = 1;
			one_load(legacy, nodes, v, ms[i], &specs[i], load, k);
		}
	}
	for (i = 0; i < n; i++) {
		if (!built[i])
			continue;
		test_name(t, sizeof(t), v, ms[i], "_ran");
		if (nth_load(&specs[i], 1))
			ktap_ok(t);
		else
			ktap_fail(t, "the spec of %s/%s has no load line", v, ms[i]);
	}
	free(built);
}

int main(int argc, char **argv)
{
	static char v[MAX_DEVS][64], m[MAX_DEVS][128], list[2][4096];
	static struct spec s;
	static const char *const variants[] = { "corpus", "corpus-converted" };
	struct spec *specs;
	char path[LINE_LEN], line[512], kind[64], t[128];
	struct sigaction sa = { .sa_handler = on_alarm };
	int n = 0, i, j, plan = 3, count;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: corpus-test LEGACY NODES\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGALRM, &sa, NULL); /* no SA_RESTART: a read that hangs fails with EINTR */

	fmt(path, sizeof(path), "%s/corpus-manifest", argv[1]);
	f = fopen(path, "re");
	while (f && n < MAX_DEVS && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %127s %63s", v[n], m[n], kind) == 3 && !strcmp(kind, "corpus"))
			n++;
	if (f)
		fclose(f);
	if (!n) {
		printf("1..1\n");
		ktap_fail("corpus_staged", "no drivers in %s: the image was built without the migration corpus",
		       path);
		printf("# ktap-done: %d results, %d failed, 0 skipped\n", results, failed);
		return 1;
	}

	/* The plan: 3, then per driver 2 (builds, ran) and 4 per load line. */
	for (i = 0; i < n; i++) {
		fmt(path, sizeof(path), "%s/%s/%s.spec", argv[1], v[i], m[i]);
		plan += 2 + 4 * (read_spec(path, &s) ? 0 : count_key(&s, "load"));
	}
	printf("1..%d\n", plan);

	for (j = 0; j < 2; j++) {
		count = 0;
		for (i = 0; i < n; i++) {
			if (strcmp(v[i], variants[j]))
				continue;
			count++;
			append(list[j], sizeof(list[j]), "%s ", m[i]);
		}
		test_name(t, sizeof(t), "corpus_variant", variants[j], "");
		if (count >= 8)
			ktap_ok(t);
		else
			ktap_fail(t, "the manifest lists %d drivers of variant %s, want 8 or more", count,
			       variants[j]);
	}
	if (strcmp(list[0], list[1]))
		ktap_fail("corpus_variants_agree", "the two variants list different drivers: '%s', '%s'",
		       list[0], list[1]);
	else
		ktap_ok("corpus_variants_agree");

	if (mkdir(argv[2], 0700) && errno != EEXIST) {
		ktap_diag("mkdir %s: %s", argv[2], strerror(errno));
		return 1;
	}
	specs = calloc(n, sizeof(*specs));
	if (!specs) {
		ktap_diag("out of memory");
		return 1;
	}
	for (j = 0; j < 2; j++)
		one_variant(argv[1], argv[2], variants[j], v, m, n, specs);
	reap(NULL);
	free(specs);
	remove_nodes(argv[2]);
	printf("# ktap-done: %d results, %d failed, 0 skipped\n", results, failed);
	return failed ? 1 : 0;
}
