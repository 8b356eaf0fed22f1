/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 MSR accessors: the "l" names (before 6.16), the "q" names (6.16 and later) and the
 * _on_cpu accessors of a 32-bit pair (removed after 6.16), on every x86 kernel.
 *
 * A family of names a kernel lacks becomes object-like macros naming the family it has (what
 * a driver writes itself: "#define rdmsrl rdmsrq"; the same definition again is no
 * diagnostic), and the pair accessors static inline functions over the 64-bit ones. Nothing
 * on another architecture than x86.
 */
#ifndef CDEV_COMPAT_CHANGE_MSR_H
#define CDEV_COMPAT_CHANGE_MSR_H

#ifdef CONFIG_X86
#include <linux/types.h>
#include <asm/msr.h>
#include <cdev_compat_probes.h>

#if !CDEV_COMPAT_HAVE_MSR_Q && CDEV_COMPAT_HAVE_MSR_L
#ifndef rdmsrq
#define rdmsrq rdmsrl
#endif
#ifndef wrmsrq
#define wrmsrq wrmsrl
#endif
#ifndef rdmsrq_safe
#define rdmsrq_safe rdmsrl_safe
#endif
#ifndef wrmsrq_safe
#define wrmsrq_safe wrmsrl_safe
#endif
#ifndef rdmsrq_on_cpu
#define rdmsrq_on_cpu rdmsrl_on_cpu
#endif
#ifndef wrmsrq_on_cpu
#define wrmsrq_on_cpu wrmsrl_on_cpu
#endif
#ifndef rdmsrq_safe_on_cpu
#define rdmsrq_safe_on_cpu rdmsrl_safe_on_cpu
#endif
#ifndef wrmsrq_safe_on_cpu
#define wrmsrq_safe_on_cpu wrmsrl_safe_on_cpu
#endif
#endif

#if !CDEV_COMPAT_HAVE_MSR_L && CDEV_COMPAT_HAVE_MSR_Q
#ifndef rdmsrl
#define rdmsrl rdmsrq
#endif
#ifndef wrmsrl
#define wrmsrl wrmsrq
#endif
#ifndef rdmsrl_safe
#define rdmsrl_safe rdmsrq_safe
#endif
#ifndef wrmsrl_safe
#define wrmsrl_safe wrmsrq_safe
#endif
#ifndef rdmsrl_on_cpu
#define rdmsrl_on_cpu rdmsrq_on_cpu
#endif
#ifndef wrmsrl_on_cpu
#define wrmsrl_on_cpu wrmsrq_on_cpu
#endif
#ifndef rdmsrl_safe_on_cpu
#define rdmsrl_safe_on_cpu rdmsrq_safe_on_cpu
#endif
#ifndef wrmsrl_safe_on_cpu
#define wrmsrl_safe_on_cpu wrmsrq_safe_on_cpu
#endif
#endif

#if !CDEV_COMPAT_HAVE_MSR_PAIR_ON_CPU && CDEV_COMPAT_HAVE_MSR_Q
/**
 * rdmsr_on_cpu() - read an MSR on a CPU as two 32-bit halves, as before 6.17
 * @cpu: the CPU
 * @msr_no: the MSR
 * @l: where the low half goes
 * @h: where the high half goes
 *
 * Return: 0, or the error of rdmsrq_on_cpu().
 */
static inline int rdmsr_on_cpu(unsigned int cpu, u32 msr_no, u32 *l, u32 *h)
{
	u64 q = 0;
	int err = rdmsrq_on_cpu(cpu, msr_no, &q);

	*l = lower_32_bits(q);
	*h = upper_32_bits(q);
	return err;
}

/**
 * wrmsr_on_cpu() - write an MSR on a CPU from two 32-bit halves, as before 6.17
 * @cpu: the CPU
 * @msr_no: the MSR
 * @l: the low half
 * @h: the high half
 *
 * Return: 0, or the error of wrmsrq_on_cpu().
 */
static inline int wrmsr_on_cpu(unsigned int cpu, u32 msr_no, u32 l, u32 h)
{
	return wrmsrq_on_cpu(cpu, msr_no, (u64)h << 32 | l);
}

/**
 * rdmsr_safe_on_cpu() - read an MSR on a CPU as two 32-bit halves, faults caught
 * @cpu: the CPU
 * @msr_no: the MSR
 * @l: where the low half goes
 * @h: where the high half goes
 *
 * Return: 0, or the error of rdmsrq_safe_on_cpu() (-EIO for an MSR that faults).
 */
static inline int rdmsr_safe_on_cpu(unsigned int cpu, u32 msr_no, u32 *l, u32 *h)
{
	u64 q = 0;
	int err = rdmsrq_safe_on_cpu(cpu, msr_no, &q);

	*l = lower_32_bits(q);
	*h = upper_32_bits(q);
	return err;
}

/**
 * wrmsr_safe_on_cpu() - write an MSR on a CPU from two 32-bit halves, faults caught
 * @cpu: the CPU
 * @msr_no: the MSR
 * @l: the low half
 * @h: the high half
 *
 * Return: 0, or the error of wrmsrq_safe_on_cpu().
 */
static inline int wrmsr_safe_on_cpu(unsigned int cpu, u32 msr_no, u32 l, u32 h)
{
	return wrmsrq_safe_on_cpu(cpu, msr_no, (u64)h << 32 | l);
}
#endif

#endif /* CONFIG_X86 */
#endif /* CDEV_COMPAT_CHANGE_MSR_H */
