// SPDX-License-Identifier: GPL-2.0-only
/*
 * legacy-driver-test - userspace side of the real legacy drivers' guest test
 * (tests.d/70-legacy-drivers.sh). Each command prints what it saw and exits 0 if the driver
 * answered as the hardware (or the kernel) says it must, 1 if not, 2 on bad usage.
 *
 *   legacy-driver-test cpuid PATH
 *	reads leaf 0 through PATH (/dev/cpu/N/cpuid: the file offset is the leaf) and compares
 *	it with what the CPUID instruction returns here
 *   legacy-driver-test msr PATH CPU
 *	on CPU, reads IA32_TSC_AUX (MSR 0xc0000103) through PATH (/dev/cpu/CPU/msr) and
 *	compares it with the ECX that RDTSCP returns there (the kernel writes the CPU and node
 *	number into TSC_AUX for this instruction); on CPU 0 also reads IA32_APIC_BASE
 *	(MSR 0x1b), which must say what every x86 boot CPU's says: BSP flag and global enable
 *	set, base 0xfee00000 (CPU 0's TSC_AUX is 0, as QEMU's TCG answers an MSR it does not
 *	implement, so TSC_AUX alone would not show that the read reached the CPU); also prints
 *	IA32_TSC (MSR 0x10) read twice, which is not checked: QEMU's TCG answers 0 for it
 *   legacy-driver-test ppp PATH
 *	opens PATH (/dev/ppp), asks for a new unit with PPPIOCNEWUNIT and checks that its
 *	network interface /sys/class/net/ppp<unit> exists while the file is open; prints unit=N
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/ppp-ioctl.h>

#define MSR_IA32_TSC 0x10
#define MSR_IA32_APIC_BASE 0x1b
#define APIC_BASE_BSP (1ull << 8)
#define APIC_BASE_ENABLE (1ull << 11)
#define APIC_BASE_DEFAULT 0xfee00000ull
#define MSR_TSC_AUX 0xc0000103

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "legacy-driver-test: %s %s: %s\n", what, path,
		errno ? strerror(errno) : "short read");
	return 1;
}

static int cmd_cpuid(const char *path)
{
	uint32_t dev[4], insn[4];
	char vendor[13];
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return fail("open", path);
	errno = 0;
	if (pread(fd, dev, sizeof(dev), 0) != (ssize_t)sizeof(dev)) {
		close(fd);
		return fail("pread leaf 0 of", path);
	}
	close(fd);
	__cpuid_count(0, 0, insn[0], insn[1], insn[2], insn[3]);
	memcpy(vendor, &insn[1], 4);
	memcpy(vendor + 4, &insn[3], 4);
	memcpy(vendor + 8, &insn[2], 4);
	vendor[12] = '\0';
	printf("device eax=%08" PRIx32 " ebx=%08" PRIx32 " ecx=%08" PRIx32 " edx=%08" PRIx32 "\n",
	       dev[0], dev[1], dev[2], dev[3]);
	printf("insn   eax=%08" PRIx32 " ebx=%08" PRIx32 " ecx=%08" PRIx32 " edx=%08" PRIx32
	       " vendor=%s\n", insn[0], insn[1], insn[2], insn[3], vendor);
	return memcmp(dev, insn, sizeof(dev)) != 0;
}

static int cmd_msr(const char *path, const char *cpu_arg)
{
	uint32_t eax, ebx, ecx, edx, aux;
	uint64_t msr, tsc[2], apic = 0;
	cpu_set_t set;
	int cpu = atoi(cpu_arg);
	int fd;

	if (!__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) || !(edx & (1u << 27))) {
		fprintf(stderr, "legacy-driver-test: this CPU has no RDTSCP\n");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return fail("pin to CPU", cpu_arg);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return fail("open", path);
	errno = 0;
	if (pread(fd, &msr, sizeof(msr), MSR_TSC_AUX) != (ssize_t)sizeof(msr) ||
	    pread(fd, &tsc[0], sizeof(tsc[0]), MSR_IA32_TSC) != (ssize_t)sizeof(tsc[0]) ||
	    pread(fd, &tsc[1], sizeof(tsc[1]), MSR_IA32_TSC) != (ssize_t)sizeof(tsc[1])) {
		close(fd);
		return fail("pread of", path);
	}
	if (cpu == 0 && pread(fd, &apic, sizeof(apic), MSR_IA32_APIC_BASE) != (ssize_t)sizeof(apic)) {
		close(fd);
		return fail("pread of IA32_APIC_BASE through", path);
	}
	close(fd);
	__asm__ volatile("rdtscp" : "=a"(eax), "=d"(edx), "=c"(aux));
	printf("cpu=%d msr_tsc_aux=0x%" PRIx64 " rdtscp_aux=0x%" PRIx32
	       " ia32_tsc=%" PRIu64 ",%" PRIu64, cpu, msr, aux, tsc[0], tsc[1]);
	if (cpu == 0)
		printf(" apic_base=0x%" PRIx64 " (want BSP, enabled, base 0x%llx)", apic,
		       APIC_BASE_DEFAULT);
	putchar('\n');
	if (cpu == 0 && ((apic & (APIC_BASE_BSP | APIC_BASE_ENABLE)) !=
			 (APIC_BASE_BSP | APIC_BASE_ENABLE) ||
			 (apic & ~0xfffull) != APIC_BASE_DEFAULT))
		return 1;
	return (uint32_t)msr != aux;
}

static int cmd_ppp(const char *path)
{
	char net[64];
	int unit = -1, present;
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return fail("open", path);
	if (ioctl(fd, PPPIOCNEWUNIT, &unit) < 0) {
		close(fd);
		return fail("PPPIOCNEWUNIT on", path);
	}
	snprintf(net, sizeof(net), "/sys/class/net/ppp%d", unit);
	present = access(net, F_OK) == 0;
	printf("unit=%d %s=%s\n", unit, net, present ? "present" : "missing");
	close(fd);
	return !present;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "cpuid"))
		return cmd_cpuid(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "msr"))
		return cmd_msr(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "ppp"))
		return cmd_ppp(argv[2]);
	fprintf(stderr, "usage: legacy-driver-test cpuid|ppp PATH | msr PATH CPU\n");
	return 2;
}
