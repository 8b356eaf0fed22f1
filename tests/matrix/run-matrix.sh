#!/bin/bash
# Matrix boots (issue 5): for each target kernel build (or reuse) a mkosi cpio image with the
# kernel, its headers, dkms and the project's cdev-compat-dkms .deb apt-installed; boot it in
# QEMU (direct kernel boot, TCG unless KVM passes a probe); collect the guest's KTAP; print
# one table and write build/matrix/junit.xml. Exit status non-zero if any kernel fails.
#
#   KERNELS=bookworm,onearg tests/matrix/run-matrix.sh     (default: all five)
#
# Environment:
#   KERNELS                    comma list of bullseye,bookworm,trixie,newest,onearg
#   CDEV_MATRIX_DEB            the .deb to install (default: newest build/cdev-compat-dkms_*_all.deb,
#                              built with `make deb` if none); "standin" = tests/matrix/standin
#   CDEV_MATRIX_KERNEL_DIR     the one-arg kernel .debs (default build/kernel; `make kernel` if empty)
#   CDEV_MATRIX_BOOT_TIMEOUT   seconds before a guest counts as hung (default 600; onearg twice)
#   CDEV_MATRIX_JOBS           guests booted at once, overlapping the next image build (default 2)
#   CDEV_MATRIX_SMP            vCPUs per guest (default 2)
#   CDEV_MATRIX_REBUILD=1      ignore the image cache (mkosi's incremental cache still applies)
#   CDEV_MATRIX_ACCEL          tcg or kvm: skip the KVM probe
# Outputs: build/matrix/<kernel>/{console.log,ktap.txt,mkosi.log,result.env}, build/matrix/junit.xml,
# build/matrix/summary.txt. Images: $CDEV_COMPAT_CACHE/matrix/images/<kernel>/<key>/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"
# shellcheck source-path=SCRIPTDIR source=matrix-lib.sh disable=SC1091
. "$(dirname "$0")/matrix-lib.sh"

T_RUN=$(date +%s.%N)
ALL_KERNELS=bullseye,bookworm,trixie,newest,onearg
KERNELS=${KERNELS:-$ALL_KERNELS}
KERNELS=${KERNELS// /}
IFS=, read -r -a kernels <<<"$KERNELS"
for k in "${kernels[@]}"; do
	case ",$ALL_KERNELS," in *",$k,"*) ;; *) die "unknown kernel '$k' (known: $ALL_KERNELS)" ;; esac
done

[ "$(id -u)" -eq 0 ] || die "run as root (mkosi and apt need it)"
MATRIX_DIR=$BUILD_DIR/matrix
mkdir -p "$MATRIX_DIR" "$CDEV_COMPAT_CACHE/matrix"
exec 9>"$CDEV_COMPAT_CACHE/matrix/lock"
flock -n 9 || { log "another matrix run holds $CDEV_COMPAT_CACHE/matrix/lock; waiting"; flock 9; }

phase "host setup"
"$CDEV_TOP/tests/matrix/host-setup.sh"
phase_done "host setup"

phase "inputs"
matrix_find_deb
case ",$KERNELS," in *,onearg,*) matrix_find_kernel_debs ;; esac
matrix_build_overlay
matrix_pick_accel
phase_done "inputs"

phase "kernels"
# Images are built one after the other; each boot starts in the background as soon as its image
# is ready, at most CDEV_MATRIX_JOBS (default 2) guests at a time, so boots overlap the next
# image build. Each half runs in a subshell: errexit stays on inside, and one kernel's failure
# (recorded in build/matrix/<k>/result.env) does not stop the others.
# The slowest guest (onearg: lockdep and kmemleak under TCG) starts first, so that the others
# run beside it rather than after it; the report keeps the KERNELS order.
jobs_max=${CDEV_MATRIX_JOBS:-2}
order=()
for k in "${kernels[@]}"; do [ "$k" != onearg ] || order+=("$k"); done
for k in "${kernels[@]}"; do [ "$k" = onearg ] || order+=("$k"); done
for k in "${order[@]}"; do
	set +e
	(
		set -e
		matrix_prepare_kernel "$k"
	)
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || continue
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n || true
	done
	(
		set -e
		matrix_boot_kernel "$k"
	) &
done
wait || true
phase_done "kernels"

phase "report"
matrix_report
