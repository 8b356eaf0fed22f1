#!/bin/bash
# The migration corpus (issue 14): the legacy-driver shapes of tests/migrate-corpus/, written
# for the test, built into the image twice by tests/legacy/ (stage-corpus.sh,
# build-drivers.sh): "corpus", as written, with the compat header force-included, and
# "corpus-converted", as cdev-compat-migrate --cdev converted them. Each driver's spec
# (MODULE.spec) says what it must do. For each variant, driver and "load" line of its spec:
#   builds       the image build made MODULE.ko;
#   loads        insmod with the line's parameters (@free: a free major, asked for as a fixed
#                one) as an out-of-tree module;
#   registers    /proc/devices gains exactly the spec's chrdev names (and the fixed major);
#   opens        every "read NAME MINOR TEXT" node (made here with the major /proc/devices
#                gives NAME) opens and reads back TEXT; every "noopen NAME MINOR" node fails to
#                open; every "node DEV NAME MINOR" the driver made is /dev/DEV with NAME's
#                major and MINOR (the shape of issue 14's failure 1 made them with major 0);
#   unloads      rmmod; /proc/devices is as before; the driver's nodes are gone; every "read"
#                node now fails to open: no cdev left mapped after the unload (the shape of
#                failure 2 left one, a use-after-free on that open).
# The checks run in one process, progs/corpus-test.c (as shell commands they started some 60
# programs per load, 2-6 minutes of a TCG guest); it prints the plan, results and trailer.
set -euo pipefail
exec "${CORPUS_TEST:-/usr/lib/cdev-compat/bin/corpus-test}" \
	"${LEGACY:-/usr/lib/cdev-compat/legacy-drivers}" /dev/cdev-corpus-test
