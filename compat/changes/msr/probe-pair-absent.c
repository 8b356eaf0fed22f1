// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: rdmsr_safe_on_cpu is neither a macro nor declared, or the architecture is not x86.
 *
 * Set: msr_pair
 * Defines: CDEV_COMPAT_HAVE_MSR_PAIR_ON_CPU 0
 */
#ifdef CONFIG_X86
#include <linux/types.h>
#include <asm/msr.h>

#ifdef rdmsr_safe_on_cpu
#error "rdmsr_safe_on_cpu is a macro"
#endif
int rdmsr_safe_on_cpu;
#endif
