// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: MODULE_IMPORT_NS(ns) takes a string: 6.13 and later ("module: Convert symbol namespace to string literal").
 *
 * MODULE_INFO() is redefined here to check what MODULE_IMPORT_NS() hands it: the string
 * "CDEV_COMPAT_PROBE_NS" (21 bytes with its NUL) for this spelling, and something else (an
 * undeclared identifier, or a string with quotes in it) for the other.
 *
 * Set: import_ns
 * Defines: CDEV_COMPAT_MODULE_IMPORT_NS_STRING 1
 */
#include <linux/module.h>

#undef MODULE_INFO
#define MODULE_INFO(tag, info) _Static_assert(sizeof(info) == 21, "not this spelling")
MODULE_IMPORT_NS("CDEV_COMPAT_PROBE_NS");
