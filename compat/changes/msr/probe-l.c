// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: rdmsrl_safe_on_cpu() can be called (x86).
 *
 * Detects: the "l" names of the 64-bit accessors, before 6.16.
 *
 * Set: msr_l
 * Defines: CDEV_COMPAT_HAVE_MSR_L 1
 */
#include <linux/types.h>
#include <asm/msr.h>

int cdev_compat_probe(unsigned int cpu);
int cdev_compat_probe(unsigned int cpu)
{
	u64 q;

	return rdmsrl_safe_on_cpu(cpu, 0x10, &q);
}
