// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdev_compat_probes - what DKMS builds for each kernel on a user's machine.
 *
 * Building it runs cdev-compat's feature probes against that kernel (exactly one variant of
 * every API must compile, or the build fails naming the probe's log) and compiles the compat
 * header's spellings and helpers against it, so `dkms status` tells whether cdev-compat
 * supports each installed kernel, and installing a kernel's headers names one it does not.
 * The results are in modinfo (cdev_compat_unregister_args, cdev_compat_class_create_owner,
 * cdev_compat_devnode_const, cdev_compat_kernel).
 *
 * It has no init or exit function, no device, no parameter: loading it does nothing. Vendor
 * modules do not need it loaded, or installed; they build against /usr/share/cdev-compat.
 */
#define CDEV_COMPAT_DEFINE_HELPERS
#include <linux/module.h>
#include <cdev_compat.h>

void cdev_compat_probes_spellings(unsigned int major, const char *name);

/*
 * Never called: it only has to compile, with every spelling the header accepts, against
 * the kernel this module is built for.
 */
void cdev_compat_probes_spellings(unsigned int major, const char *name)
{
	struct class *a = class_create(THIS_MODULE, name);
	struct class *b = class_create(name);

	if (!IS_ERR(a))
		class_destroy(a);
	if (!IS_ERR(b))
		class_destroy(b);
	unregister_chrdev(major, name);
	unregister_chrdev(major);
	__unregister_chrdev(major, 0, 1, name);
	__unregister_chrdev(major, 0, 1);
}

MODULE_DESCRIPTION("cdev-compat feature probe results for this kernel (no device; does nothing when loaded)");
MODULE_LICENSE("GPL");
MODULE_VERSION(CDEV_COMPAT_VERSION);
MODULE_INFO(cdev_compat_unregister_args, __stringify(CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS));
MODULE_INFO(cdev_compat_class_create_owner, __stringify(CDEV_COMPAT_CLASS_CREATE_HAS_OWNER));
MODULE_INFO(cdev_compat_devnode_const, __stringify(CDEV_COMPAT_DEVNODE_CONST_DEVICE));
MODULE_INFO(cdev_compat_kernel, CDEV_COMPAT_PROBED_RELEASE);
