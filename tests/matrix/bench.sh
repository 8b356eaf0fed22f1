#!/bin/bash
# Per-kernel timings for `make bench`: image build time (mkosi, including DKMS), the DKMS build
# of the module alone (a timed forced rebuild inside the image build), and boot-to-results
# (QEMU start to the guest's exit with its KTAP). Runs tests/matrix/run-matrix.sh (same
# environment: KERNELS, CDEV_MATRIX_DEB, ...) and prints a table from its results.
#   CDEV_BENCH_COLD=1  rebuild the images (ignores the image cache; mkosi's incremental and
#                      package caches still apply) so the image column is this run's.
# Exit status: that of the matrix run.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"

ALL_KERNELS=bullseye,bookworm,trixie,newest,onearg
KERNELS=${KERNELS:-$ALL_KERNELS}
export KERNELS
[ -z "${CDEV_BENCH_COLD:-}" ] || export CDEV_MATRIX_REBUILD=1

rc=0
"$CDEV_TOP/tests/matrix/run-matrix.sh" || rc=$?

IFS=, read -r -a kernels <<<"${KERNELS// /}"
printf '\nbench (seconds)\n'
printf '%-9s | %-28s | %14s | %10s | %15s | %8s\n' kernel version "image build" "dkms build" "boot-to-results" "total"
printf '%s\n' "----------|------------------------------|----------------|------------|-----------------|---------"
for k in "${kernels[@]}"; do
	f=$BUILD_DIR/matrix/$k/result.env
	if [ ! -f "$f" ]; then
		printf '%-9s | %-28s | %14s | %10s | %15s | %8s\n' "$k" '?' - - - -
		continue
	fi
	# shellcheck disable=SC1090
	. "$f"
	img=$R_IMAGE_S
	[ "$R_IMAGE_CACHED" != yes ] || img="$img (cached)"
	printf '%-9s | %-28s | %14s | %10s | %15s | %8s\n' "$k" "${R_VERSION%% *}" "$img" "$R_DKMS_S" "$R_BOOT_S" "$R_TOTAL_S"
done
printf '(image build: when the image was built, "(cached)" if reused this run; CDEV_BENCH_COLD=1 rebuilds)\n'
exit "$rc"
