// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refused: a dynamic major registered in a probe callback, kept in one static
 * variable; probe may run once per device, and one static handle cannot hold
 * a registration per device.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static const struct file_operations rq_fops = { .owner = THIS_MODULE };
static int rq_major;

static int rq_probe(struct platform_device *pdev)
{
	rq_major = register_chrdev(0, "rq", &rq_fops);
	return rq_major < 0 ? rq_major : 0;
}

static int rq_remove(struct platform_device *pdev)
{
	unregister_chrdev(rq_major, "rq");
	return 0;
}

static struct platform_driver rq_driver = {
	.probe = rq_probe,
	.remove = rq_remove,
	.driver = { .name = "rq" },
};
module_platform_driver(rq_driver);
MODULE_LICENSE("GPL");
