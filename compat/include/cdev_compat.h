/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev_compat.h - build a char driver on both sides of the unregister_chrdev() change, and
 * move it onto the cdev interface. The one public header of cdev-compat.
 *
 * Build with the Kbuild fragment (include /usr/share/cdev-compat/cdev-compat.mk), which runs
 * the feature probes against the target kernel and puts their results on the include path.
 * Then either #include <cdev_compat.h> after the driver's own includes, or set
 * CDEV_COMPAT_FORCE_INCLUDE := y in the Kbuild for a driver that changes no line. It gives:
 *
 *  - cdev_compat_unregister.h: unregister_chrdev(major) and unregister_chrdev(major, name),
 *    __unregister_chrdev() with 3 or 4 arguments, void like the kernel's, on a kernel whose
 *    unregister_chrdev() takes one argument and on one whose takes two;
 *  - cdev_compat_class.h: class_create(owner, name) and class_create(name) on kernels from
 *    both sides of the 6.4 change, and on kernels that backported it;
 *  - cdev_compat_region.h: register_chrdev-as-cdev helpers on a handle,
 *    cdev_compat_register(), cdev_compat_register_chrdev(), cdev_compat_unregister(), and
 *    the inode->i_cdev step, cdev_compat_from_inode();
 *  - cdev_compat_nodes.h: a class and one device node per device number,
 *    cdev_compat_create_nodes();
 *  - cdev_compat_redirect.h: with CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV defined, an unmodified
 *    driver's register_chrdev()/unregister_chrdev() are served by cdev regions.
 *
 * The register and redirect helpers hold state and are more than a few lines: their bodies
 * are defined once per module, in the one source file that defines CDEV_COMPAT_DEFINE_HELPERS
 * before including this header (cdev_compat_define.h). Every other file of the module only
 * sees their declarations.
 *
 * Which kernel it is comes from feature probes run against the target kernel
 * (<cdev_compat_probes.h>), never from its version number.
 */
#ifndef CDEV_COMPAT_H
#define CDEV_COMPAT_H

#include <linux/device.h>
#include <linux/module.h>
#include <cdev_compat_unregister.h>
#include <cdev_compat_class.h>
#include <cdev_compat_region.h>
#include <cdev_compat_nodes.h>
#include <cdev_compat_redirect.h>
/* The API changes between 5.10 and 7.3 that a header can bridge (compat/changes/NAME/compat.h). */
#include <cdev_compat_changes.h>

#endif /* CDEV_COMPAT_H */

/* Outside the guard: a later include with the define set still emits the bodies, once. */
#ifdef CDEV_COMPAT_DEFINE_HELPERS
#include <cdev_compat_define.h>
#endif
