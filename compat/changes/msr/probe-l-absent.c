// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: rdmsrl_safe_on_cpu is neither a macro nor declared, or the architecture is not x86.
 *
 * Set: msr_l
 * Defines: CDEV_COMPAT_HAVE_MSR_L 0
 */
#ifdef CONFIG_X86
#include <linux/types.h>
#include <asm/msr.h>

#ifdef rdmsrl_safe_on_cpu
#error "rdmsrl_safe_on_cpu is a macro"
#endif
int rdmsrl_safe_on_cpu;
#endif
