// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused: the per-device struct that holds the major is allocated with
 * devm_kzalloc(), so it goes when the device is unbound, maybe while a file is
 * still open.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/platform_device.h>

struct rd_dev {
	int major;
};

static const struct file_operations rd_fops = { .owner = THIS_MODULE };

static int rd_probe(struct platform_device *pdev)
{
	struct rd_dev *dev;

	dev = devm_kzalloc(&pdev->dev, sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->major = register_chrdev(0, "rd", &rd_fops);
	if (dev->major < 0)
		return dev->major;
	platform_set_drvdata(pdev, dev);
	return 0;
}

static int rd_remove(struct platform_device *pdev)
{
	struct rd_dev *dev = platform_get_drvdata(pdev);

	unregister_chrdev(dev->major, "rd");
	return 0;
}

static struct platform_driver rd_driver = {
	.probe = rd_probe,
	.remove = rd_remove,
	.driver = { .name = "rd" },
};
module_platform_driver(rd_driver);
MODULE_LICENSE("GPL");
