// SPDX-License-Identifier: GPL-2.0-only
/* Size figure for make bench: the same device on the cdev-compat helpers, with nodes. */
#define CDEV_COMPAT_DEFINE_HELPERS
#include <linux/fs.h>
#include <linux/module.h>
#include <cdev_compat.h>

static struct cdev_compat_region bench_region;

static const struct file_operations bench_fops = {
	.owner = THIS_MODULE,
};

static int __init bench_init(void)
{
	int ret = cdev_compat_register(&bench_region, 0, 0, 256, "bench_helpers",
				       &bench_fops);

	if (ret)
		return ret;
	ret = cdev_compat_create_nodes(&bench_region, NULL, 0600, "bench");
	if (ret)
		cdev_compat_unregister(&bench_region);
	return ret;
}

static void __exit bench_exit(void)
{
	cdev_compat_unregister(&bench_region);
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_LICENSE("GPL");
