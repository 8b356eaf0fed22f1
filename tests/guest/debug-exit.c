// SPDX-License-Identifier: GPL-2.0
/*
 * cdev-debug-exit VALUE - make QEMU exit with status (VALUE << 1) | 1 through the
 * isa-debug-exit device at port 0xf4 (-device isa-debug-exit,iobase=0xf4,iosize=0x04).
 * Debian's cloud kernels have no /dev/port, so this does the outb itself. Built static on the
 * host by tests/matrix/run-matrix.sh; returns only if the device is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	unsigned long v;
	char *end;

	if (argc != 2) {
		fprintf(stderr, "usage: %s VALUE (0..255)\n", argv[0]);
		return 2;
	}
	v = strtoul(argv[1], &end, 0);
	if (*end || v > 255) {
		fprintf(stderr, "%s: bad value '%s'\n", argv[0], argv[1]);
		return 2;
	}
	if (ioperm(DEBUG_EXIT_PORT, 4, 1)) {
		perror("ioperm");
		return 1;
	}
	outb((unsigned char)v, DEBUG_EXIT_PORT);
	fprintf(stderr, "%s: QEMU did not exit (no isa-debug-exit device?)\n", argv[0]);
	return 1;
}
