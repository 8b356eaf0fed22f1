// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: rdmsr_safe_on_cpu() can be called (x86).
 *
 * Detects: the _on_cpu accessors of a 32-bit pair, removed after 6.16 (their callers use the 64-bit ones).
 *
 * Set: msr_pair
 * Defines: CDEV_COMPAT_HAVE_MSR_PAIR_ON_CPU 1
 */
#include <linux/types.h>
#include <asm/msr.h>

int cdev_compat_probe(unsigned int cpu);
int cdev_compat_probe(unsigned int cpu)
{
	u32 l, h;

	return rdmsr_safe_on_cpu(cpu, 0x10, &l, &h);
}
