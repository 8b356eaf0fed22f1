// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_ns corpus: the provider of the namespace CC_TEST_NS, which the old and the new
 * spelling's modules import. The export itself is spelled for the kernel at hand (the probe
 * result says which): exporting into a namespace is not what this corpus tests.
 */
#include <linux/export.h>
#include <linux/module.h>
#include <cdev_compat_probes.h>

int cc_ns_value(void);

/**
 * cc_ns_value() - a value only an importer of CC_TEST_NS may ask for
 *
 * Return: 42.
 */
int cc_ns_value(void)
{
	return 42;
}
#if CDEV_COMPAT_MODULE_IMPORT_NS_STRING
EXPORT_SYMBOL_NS_GPL(cc_ns_value, "CC_TEST_NS");
#else
EXPORT_SYMBOL_NS_GPL(cc_ns_value, CC_TEST_NS);
#endif

MODULE_DESCRIPTION("cdev-compat API change corpus: the namespace provider of import_ns");
MODULE_LICENSE("GPL");
