/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdev-compat wrapper of <asm/msr.h> for the MSR renames (force-included builds): see
 * ../../compat.h. On an architecture without one, an include of it fails as it would without
 * cdev-compat.
 */
#include_next <asm/msr.h>
#ifdef CDEV_COMPAT_FORCE_INCLUDE
#include <msr/compat.h>
#endif
