// SPDX-License-Identifier: GPL-2.0-only
/*
 * platform_remove corpus, new spelling: a platform driver with a void remove callback, as from 6.11 on, and the
 * platform device it binds to (registered by the module itself). (The migration tool rewrites
 * it, as a vendor would build it.) The test: unbinding the device runs the remove callback
 * (the module parameter "removed" counts), binding it again runs probe.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>

static int cc_removed;
module_param_named(removed, cc_removed, int, 0444);
MODULE_PARM_DESC(removed, "how many times the remove callback ran");

static struct platform_device *cc_pdev;

static int cc_probe(struct platform_device *pdev)
{
	dev_info(&pdev->dev, "probed\n");
	return 0;
}

static void cc_remove(struct platform_device *pdev)
{
	cc_removed++;
	dev_info(&pdev->dev, "removed\\n");
}

static struct platform_driver cc_driver = {
	.probe = cc_probe,
	.remove = cc_remove,
	.driver = {
		.name = KBUILD_MODNAME,
	},
};

static int __init cc_init(void)
{
	int ret = platform_driver_register(&cc_driver);

	if (ret)
		return ret;
	cc_pdev = platform_device_register_simple(KBUILD_MODNAME, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(cc_pdev)) {
		platform_driver_unregister(&cc_driver);
		return PTR_ERR(cc_pdev);
	}
	return 0;
}

static void __exit cc_exit(void)
{
	platform_device_unregister(cc_pdev);
	platform_driver_unregister(&cc_driver);
}

module_init(cc_init);
module_exit(cc_exit);
MODULE_DESCRIPTION("cdev-compat API change corpus: platform_remove, new spelling");
MODULE_LICENSE("GPL");
