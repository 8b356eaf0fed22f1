// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_shim - the cdev-compat reference driver and test devices.
 *
 * The main device is registered with the cdev-compat helpers: a range of @count minors from
 * @baseminor on @major (0: dynamic), one node /dev/cdev_shim<minor> per minor; it answers as
 * every test device does (cdev_shim_fops.c). The other parts are legacy
 * register_chrdev() users with both unregister_chrdev() spellings (cdev_shim_legacy.c), an
 * unmodified legacy driver in redirect mode that registers in one file and unregisters in
 * another (cdev_shim_redirect.c, cdev_shim_redirect_teardown.c) and a control device that
 * registers test regions on request (cdev_shim_ctl.c).
 *
 * This file holds module init and exit, and defines the cdev-compat helpers for the whole
 * module (CDEV_COMPAT_DEFINE_HELPERS); the other files only call them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#define CDEV_COMPAT_DEFINE_HELPERS

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <cdev_compat.h>

#include "cdev_shim.h"

static unsigned int major;
module_param(major, uint, 0444);
MODULE_PARM_DESC(major, "major of the main device (0: dynamic)");

static unsigned int baseminor;
module_param(baseminor, uint, 0444);
MODULE_PARM_DESC(baseminor, "first minor of the main device");

static unsigned int count = 4;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "number of minors of the main device");

static bool nodes = true;
module_param(nodes, bool, 0444);
MODULE_PARM_DESC(nodes, "create /dev/cdev_shim<minor> nodes");

static struct cdev_shim_dev shim_dev;

static int __init cdev_shim_init(void)
{
	int ret;

	ret = cdev_compat_register(&shim_dev.region, major, baseminor, count,
				   "cdev_shim", &cdev_shim_region_fops.fops);
	if (ret) {
		pr_err("cannot register major %u minors %u+%u: %d\n",
		       major, baseminor, count, ret);
		return ret;
	}
	if (nodes) {
		ret = cdev_compat_create_nodes(&shim_dev.region, NULL, 0666,
					       "cdev_shim");
		if (ret) {
			pr_err("cannot create device nodes: %d\n", ret);
			goto err_region;
		}
	}
	ret = cdev_shim_legacy_init();
	if (ret)
		goto err_region;
	ret = cdev_shim_redirect_init();
	if (ret)
		goto err_legacy;
	ret = cdev_shim_ctl_init();
	if (ret)
		goto err_redirect;
	ret = cdev_shim_bench_init();
	if (ret)
		goto err_ctl;
	pr_info("registered %u:%u, %u minors (unregister_chrdev takes %d args)\n",
		MAJOR(shim_dev.region.first), MINOR(shim_dev.region.first), count,
		CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS);
	return 0;

err_ctl:
	cdev_shim_ctl_exit();
err_redirect:
	cdev_shim_redirect_exit();
err_legacy:
	cdev_shim_legacy_exit();
err_region:
	cdev_compat_unregister(&shim_dev.region);
	return ret;
}

static void __exit cdev_shim_exit(void)
{
	cdev_shim_bench_exit();
	cdev_shim_ctl_exit();
	cdev_shim_redirect_exit();
	cdev_shim_legacy_exit();
	cdev_compat_unregister(&shim_dev.region);
}

module_init(cdev_shim_init);
module_exit(cdev_shim_exit);

MODULE_DESCRIPTION("cdev-compat reference driver and test devices");
MODULE_LICENSE("GPL");
MODULE_VERSION(CDEV_COMPAT_VERSION);
MODULE_INFO(cdev_compat_unregister_args, __stringify(CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS));
MODULE_INFO(cdev_compat_kernel, CDEV_COMPAT_PROBED_RELEASE);
