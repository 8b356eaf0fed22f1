// SPDX-License-Identifier: GPL-2.0-only
/*
 * msr corpus, old spelling: a driver that reads an MSR of CPU 0 with rdmsr_safe_on_cpu() and rdmsrl_safe_on_cpu(), as before 6.16. The
 * test: the local APIC base reads as enabled ("err=0 apic_base=0x...", bit 11 set).
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <asm/msr.h>
#include <asm/msr-index.h>

#include "cc_corpus.h"

static ssize_t cc_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	char line[64];
	u32 lo = 0, hi = 0;
	u64 q = 0;
	int err = rdmsr_safe_on_cpu(0, MSR_IA32_APICBASE, &lo, &hi);
	int err64 = rdmsrl_safe_on_cpu(0, MSR_IA32_APICBASE, &q);

	snprintf(line, sizeof(line), "err=%d apic_base=0x%llx\\n", err ?: err64,
		 ((u64)hi << 32 | lo) == q ? q : 0);
	return cc_read_line(buf, len, ppos, line);
}

static const struct file_operations cc_fops = {
	.owner = THIS_MODULE,
	.read = cc_read,
};

CC_MISC_MODULE(cc_fops);
MODULE_DESCRIPTION("cdev-compat API change corpus: msr, old spelling");
MODULE_LICENSE("GPL");
