// SPDX-License-Identifier: GPL-2.0
/*
 * cdev-fast-mounts: the file systems and /dev links of the fast path (fast-init.sh), in one
 * program. As shell commands they were 13 programs (mount, chmod, ln), and under TCG each
 * program started costs 50-150 ms of a boot whose target is 10 s.
 *
 * Mounts proc, sysfs, devtmpfs, devpts, /dev/shm, /run and debugfs where nothing is mounted
 * yet (making the directory if missing), makes /tmp mode 1777 (on the root file system, as on
 * the systemd path: tests make device nodes there), sets the host name, and links /dev/fd,
 * /dev/stdin, /dev/stdout and /dev/stderr to /proc/self/fd. Exit status 0, or 1 after the
 * first failure (said on stderr; the steps after it are still tried).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int status;

static void fail(const char *what, const char *path)
{
	fprintf(stderr, "cdev-fast-mounts: %s %s: %s\n", what, path, strerror(errno));
	status = 1;
}

/* mounted(dir) - dir is a mount point in /proc/mounts (false before /proc is mounted). */
static int mounted(const char *dir)
{
	char line[512], mnt[256];
	FILE *f = fopen("/proc/mounts", "re");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %255s", mnt) == 1 && !strcmp(mnt, dir);
	fclose(f);
	return found;
}

static void mnt(const char *type, const char *dir, unsigned long flags, const char *data)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		fail("mkdir", dir);
	if (!mounted(dir) && mount(type, dir, type, flags, data))
		fail("mount", dir);
}

static void link_to(const char *target, const char *path)
{
	if (unlink(path) && errno != ENOENT)
		fail("unlink", path);
	if (symlink(target, path))
		fail("symlink", path);
}

int main(void)
{
	static const char hostname[] = "cdev-matrix";

	mnt("proc", "/proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mnt("sysfs", "/sys", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mnt("devtmpfs", "/dev", MS_NOSUID, "mode=0755");
	mnt("devpts", "/dev/pts", MS_NOSUID | MS_NOEXEC, "gid=5,mode=0620");
	mnt("tmpfs", "/dev/shm", MS_NOSUID | MS_NODEV, NULL);
	mnt("tmpfs", "/run", MS_NOSUID | MS_NODEV, "mode=0755");
	if (mkdir("/tmp", 01777) && errno != EEXIST)
		fail("mkdir", "/tmp");
	if (chmod("/tmp", 01777))
		fail("chmod", "/tmp");
	mnt("debugfs", "/sys/kernel/debug", 0, NULL);
	if (sethostname(hostname, sizeof(hostname) - 1))
		fail("sethostname", hostname);
	link_to("/proc/self/fd", "/dev/fd");
	link_to("/proc/self/fd/0", "/dev/stdin");
	link_to("/proc/self/fd/1", "/dev/stdout");
	link_to("/proc/self/fd/2", "/dev/stderr");
	return status;
}
