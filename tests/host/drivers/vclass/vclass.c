// SPDX-License-Identifier: GPL-2.0-only
/*
 * vclass - a driver that includes <cdev_compat.h> after its own includes and makes its
 * classes with both class_create() spellings, whatever the kernel's shape of it. Written for
 * the cdev-compat host tests (t-class-shapes.sh).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <cdev_compat.h>

static struct class *vclass_owner, *vclass_name;

static int __init vclass_init(void)
{
	vclass_owner = class_create(THIS_MODULE, "vclass_owner");
	if (IS_ERR(vclass_owner))
		return PTR_ERR(vclass_owner);
	vclass_name = class_create("vclass_name");
	if (IS_ERR(vclass_name)) {
		class_destroy(vclass_owner);
		return PTR_ERR(vclass_name);
	}
	pr_info("two classes\n");
	return 0;
}

static void __exit vclass_exit(void)
{
	class_destroy(vclass_name);
	class_destroy(vclass_owner);
}

module_init(vclass_init);
module_exit(vclass_exit);
MODULE_DESCRIPTION("cdev-compat test driver: class_create() in both spellings");
MODULE_LICENSE("GPL");
