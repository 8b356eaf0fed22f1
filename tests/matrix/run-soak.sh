#!/bin/bash
# make soak: the matrix's soak suite (fault injection and stress on the one-arg debug kernel,
# the in-guest benchmark, the kernel log; booted through systemd, the image builders' path).
# Same environment as run-matrix.sh (KERNELS, ...).
set -euo pipefail
# With the long tests (45-lifetime-stress: 14 min on the 6.1 debug kernel on an idle host, more
# on a busy one; that kernel's timeout factor is 3) a guest may run up to 3600 s there before
# it counts as hung.
if [ "${CDEV_SOAK_LONG:-1}" != 0 ]; then
	export CDEV_MATRIX_BOOT_TIMEOUT=${CDEV_MATRIX_BOOT_TIMEOUT:-1200}
fi
exec "$(dirname "$0")/run-matrix.sh" soak
