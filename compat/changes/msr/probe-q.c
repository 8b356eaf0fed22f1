// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: rdmsrq_safe_on_cpu() can be called (x86).
 *
 * Detects: the "q" names of the 64-bit accessors ("x86/msr: Rename 'rdmsrl()' to 'rdmsrq()'" and its siblings, 6.16).
 *
 * Set: msr_q
 * Defines: CDEV_COMPAT_HAVE_MSR_Q 1
 */
#include <linux/types.h>
#include <asm/msr.h>

int cdev_compat_probe(unsigned int cpu);
int cdev_compat_probe(unsigned int cpu)
{
	u64 q;

	return rdmsrq_safe_on_cpu(cpu, 0x10, &q);
}
