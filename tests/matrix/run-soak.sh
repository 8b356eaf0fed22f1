#!/bin/bash
# make soak: the matrix's soak suite (fault injection and stress on the one-arg debug kernel,
# the in-guest benchmark, the kernel log; booted through systemd, the image builders' path).
# Same environment as run-matrix.sh (KERNELS, ...).
set -euo pipefail
exec "$(dirname "$0")/run-matrix.sh" soak
