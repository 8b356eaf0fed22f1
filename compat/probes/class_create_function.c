// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: class_create() is a function that takes only (name).
 *
 * Detects: commit 1aaba11da9aa ("driver core: class: remove module * from class_create()"),
 * which made class_create() a function without the owner argument, and the kernels that
 * backported that commit as a function (RHEL 9 does, at its own version number).
 * First mainline version: 6.4.
 *
 * The name is not followed by "(", so a macro of that name is never expanded here: this
 * compiles only where a real function class_create(const char *) exists, whatever macro a
 * backport puts over it (the backports project defines a one-argument class_create() macro
 * over __class_create() for older kernels; class_create_owner.c covers those).
 *
 * Set: class_create
 * Defines: CDEV_COMPAT_CLASS_CREATE_HAS_OWNER 0
 */
#include <linux/device.h>

extern struct class *(*cdev_compat_probe)(const char *name);
struct class *(*cdev_compat_probe)(const char *name) = class_create;
