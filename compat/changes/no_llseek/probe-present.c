// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: no_llseek can be a file_operations' .llseek (a function before 6.0, "#define no_llseek
 * NULL" from 6.0 on).
 *
 * Detects: the kernels before 6.12, where "[tree-wide] finally take no_llseek out" removed it.
 *
 * Set: no_llseek
 * Defines: CDEV_COMPAT_HAVE_NO_LLSEEK 1
 */
#include <linux/fs.h>

const struct file_operations cdev_compat_probe = {
	.llseek = no_llseek,
};
