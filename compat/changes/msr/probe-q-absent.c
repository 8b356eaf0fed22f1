// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: rdmsrq_safe_on_cpu is neither a macro nor declared, or the architecture is not x86.
 *
 * Set: msr_q
 * Defines: CDEV_COMPAT_HAVE_MSR_Q 0
 */
#ifdef CONFIG_X86
#include <linux/types.h>
#include <asm/msr.h>

#ifdef rdmsrq_safe_on_cpu
#error "rdmsrq_safe_on_cpu is a macro"
#endif
int rdmsrq_safe_on_cpu;
#endif
