// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim benchmark devices: one file_operations, registered three ways, so that the
 * in-guest benchmark (tests/guest/tests.d/60-bench.sh) measures only how a device was
 * registered: cdev_shim_bench_native with the kernel's own __register_chrdev(),
 * cdev_shim_bench_cdev with cdev_compat_register(), and cdev_shim_bench_redirect with
 * register_chrdev() as the module's redirect mode serves it. The file operations touch
 * nothing but the caller's buffer: no lock, no lookup, no counter. No device nodes: the test
 * makes them from /proc/devices.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": bench: " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <cdev_compat.h>

#include "cdev_shim.h"

#define BENCH_NATIVE	"cdev_shim_bench_native"
#define BENCH_CDEV	"cdev_shim_bench_cdev"
#define BENCH_REDIRECT	"cdev_shim_bench_redirect"

static const char bench_text[] = "cdev_shim_bench\n";

static ssize_t bench_read(struct file *file, char __user *buf, size_t len,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, len, ppos, bench_text,
				       sizeof(bench_text) - 1);
}

static const struct file_operations bench_fops = {
	.owner = THIS_MODULE,
	.read = bench_read,
	.llseek = default_llseek,
};

static int native_major, redirect_major;
static struct cdev_compat_region bench_region;

/**
 * cdev_shim_bench_init() - register the three benchmark devices
 *
 * Return: 0 or a negative errno, with nothing left registered.
 */
int cdev_shim_bench_init(void)
{
	int ret;

	ret = cdev_compat_kernel_register_chrdev(0, 0, 256, BENCH_NATIVE, &bench_fops);
	if (ret < 0)
		return ret;
	native_major = ret;
	ret = cdev_compat_register(&bench_region, 0, 0, 1, BENCH_CDEV, &bench_fops);
	if (ret)
		goto err_native;
	ret = register_chrdev(0, BENCH_REDIRECT, &bench_fops);
	if (ret < 0)
		goto err_region;
	redirect_major = ret;
	return 0;

err_region:
	cdev_compat_unregister(&bench_region);
err_native:
	unregister_chrdev(native_major, BENCH_NATIVE);
	native_major = 0;
	return ret;
}

/**
 * cdev_shim_bench_exit() - remove the benchmark devices
 *
 * The redirected unregister finds its own registration; the native one finds the one
 * cdev_compat_kernel_register_chrdev() recorded and goes to the kernel.
 */
void cdev_shim_bench_exit(void)
{
	unregister_chrdev(redirect_major, BENCH_REDIRECT);
	cdev_compat_unregister(&bench_region);
	unregister_chrdev(native_major, BENCH_NATIVE);
}
