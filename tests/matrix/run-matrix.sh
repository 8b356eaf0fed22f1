#!/bin/bash
# The kernel matrix. For each target kernel: a mkosi cpio image (cached) with its kernel and
# the project's .deb(s) apt-installed (DKMS); a QEMU boot; KTAP back; one table, JUnit.
#
#   tests/matrix/run-matrix.sh [SUITE]          make matrix (functional), make soak, make bench
#   MODULE=DIR [MODULE_TEST=FILE] tests/matrix/run-matrix.sh
#                                               make matrix MODULE=DIR: a vendor's module
#
# SUITE (lib/suites.sh): functional (default; fast path: the runner starts right after the
# kernel), soak (fault injection, stress, bench; booted through systemd on the stock kernels,
# the fast path on the debug one-arg ones: each kernel's soak_init), bench.
# A vendor run builds DIR on the host against each kernel's headers with its own compiler
# (W=1, warnings counted), boots, loads it (its dependencies first), runs FILE (exit 0 = pass,
# or KTAP, merged), unloads it and checks the kernel log; one cell each in the table.
#
# Environment:
#   KERNELS                    comma list of the kernels described in tests/matrix/kernels/
#                              (default: those whose description lists "suite"; a vendor run
#                              those that list "vendor": the one-arg kernels without lockdep
#                              and kmemleak, which boot in seconds)
#   MODULE, MODULE_TEST        the vendor run; MODULE_TEST_TIMEOUT seconds (default 60);
#                              MODULE_GUEST_ROOT=full boots every program of the image (default:
#                              a small root, lib/initramfs.sh VENDOR_ROOT_PKGS)
#   CDEV_MATRIX_DEB            the user .deb (default: newest build/cdev-compat-dkms_*_all.deb, and
#                              cdev-compat-test-dkms of the same version beside it; `make deb` if
#                              none); "standin" = tests/matrix/standin
#   CDEV_MATRIX_KERNEL_DIR     the onearg kernel's .debs (default: build/kernel/<base>-<flavour>,
#                              from kernel/build-kernel.sh, as for every one-arg kernel)
#   CDEV_MATRIX_INIT           fast or systemd: override the suite's way into the tests on every
#                              kernel
#   CDEV_MATRIX_TESTS          NAME,NAME...: run only these of the suite's tests (a shortcut while
#                              working on them; a row then passes on them alone)
#   CDEV_MATRIX_BOOT_TIMEOUT   seconds before a guest counts as hung (default 600, a vendor run
#                              120 + MODULE_TEST_TIMEOUT; times the kernel's timeout_factor)
#   CDEV_MATRIX_START_TIMEOUT  seconds a guest has to start its test runner before it counts as
#                              hung before it (default 120 fast init, 300 systemd; times the
#                              kernel's timeout_factor; such a guest is booted once more)
#   CDEV_MATRIX_JOBS           guests booted at once, overlapping the next image build (default 2)
#   CDEV_MATRIX_SMP            QEMU -smp of every guest (default 2, of which the functional
#                              suite's kernels bring up one: maxcpus=1; a vendor run 1)
#   CDEV_MATRIX_SLUB_DEBUG     slub_debug flags (default FZP; FZPU adds the owners' stack traces);
#                              0 boots without slub_debug and page_poison=1 (to measure their cost)
#   CDEV_MATRIX_REBUILD=1      ignore the image cache (mkosi's incremental cache still applies)
#   CDEV_MATRIX_ACCEL          tcg or kvm: skip the KVM probe
#   CDEV_MATRIX_APPEND         more kernel command line
#   CDEV_MATRIX_OUTPUT         the results directory (default build/matrix; cdev-compat-matrix --output)
#   CDEV_MATRIX_PVH=0          boot the bzImage, not the uncompressed kernel at its PVH entry
#                              (lib/kernel-file.sh matrix_kernel_to_boot)
# Outputs, all kept: build/matrix/<kernel>/{console.log,ktap.txt,results.tsv,result.env,qemu.cmd,
# mkosi.log (when built),build.log (vendor)}, build/matrix/summary.{txt,md}, build/matrix/junit.xml.
# Exit status non-zero when any row (suite) or any cell (vendor) failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$here/../../scripts/lib.sh"
# shellcheck source=lib/progress.sh
. "$here/lib/progress.sh"
# shellcheck source=lib/inputs.sh
. "$here/lib/inputs.sh"
# shellcheck source=lib/kernels.sh
. "$here/lib/kernels.sh"
# shellcheck source=lib/image.sh
. "$here/lib/image.sh"
# shellcheck source=lib/initramfs.sh
. "$here/lib/initramfs.sh"
# shellcheck source=lib/kernel-file.sh
. "$here/lib/kernel-file.sh"
# shellcheck source=lib/suites.sh
. "$here/lib/suites.sh"
# shellcheck source=lib/overlay.sh
. "$here/lib/overlay.sh"
# shellcheck source=lib/vendor.sh
. "$here/lib/vendor.sh"
# shellcheck source=lib/boot.sh
. "$here/lib/boot.sh"
# shellcheck source=lib/ktap.sh
. "$here/lib/ktap.sh"
# shellcheck source=lib/result.sh
. "$here/lib/result.sh"
# shellcheck source=lib/run-kernel.sh
. "$here/lib/run-kernel.sh"
# shellcheck source=lib/report.sh
. "$here/lib/report.sh"
# shellcheck source=lib/junit.sh
. "$here/lib/junit.sh"
# shellcheck source=lib/json.sh
. "$here/lib/json.sh"

T_RUN=$(date +%s.%N)
MODULE=${MODULE:-}
if [ -n "$MODULE" ]; then KERNELS=${KERNELS:-$MATRIX_KERNELS_VENDOR}; else KERNELS=${KERNELS:-$MATRIX_KERNELS_SUITE}; fi
KERNELS=${KERNELS// /}
IFS=, read -r -a kernels <<<"$KERNELS"
for k in "${kernels[@]}"; do
	case ",$MATRIX_KERNELS_ALL," in *",$k,"*) ;; *) die "unknown kernel '$k' (known: $MATRIX_KERNELS_ALL)" ;; esac
done
SUITE=${1:-functional}
if [ -n "$MODULE" ]; then
	MODE=vendor
	[ "$SUITE" = functional ] || die "MODULE= is a vendor run; it takes no suite ($SUITE)"
	INIT=fast INITS=fast
	[ "${CDEV_MATRIX_INIT:-fast}" = fast ] || die "a vendor run (MODULE=) boots the fast path only"
	vendor_check_inputs
else
	MODE=suite
	suite_tests "$SUITE" bookworm >/dev/null
	# INIT is each kernel's own (lib/suites.sh suite_init), set by matrix_prepare_kernel;
	# INITS, for the run line, the run's inits
	INITS=$(for k in "${kernels[@]}"; do suite_init "$SUITE" "$k"; done | sort -u | paste -sd/)
	[ -z "${MODULE_TEST:-}" ] || die "MODULE_TEST= needs MODULE=DIR"
fi

case "${CDEV_MATRIX_INIT:-fast}" in fast | systemd) ;; *) die "CDEV_MATRIX_INIT is fast or systemd (got '$CDEV_MATRIX_INIT')" ;; esac
[ "$(id -u)" -eq 0 ] || die "run as root (mkosi and apt need it)"
MATRIX_DIR=${CDEV_MATRIX_OUTPUT:-$BUILD_DIR/matrix}
mkdir -p "$MATRIX_DIR" "$CDEV_COMPAT_CACHE/matrix"
exec 9>"$CDEV_COMPAT_CACHE/matrix/lock"
flock -n 9 || { log "another matrix run holds $CDEV_COMPAT_CACHE/matrix/lock; waiting"; flock 9; }
rm -f "$MATRIX_DIR"/summary.* "$MATRIX_DIR/junit.xml"

matrix_phase "host setup"
"$CDEV_TOP/tests/matrix/host-setup.sh"
matrix_phase_done "host setup"

matrix_phase "inputs"
matrix_find_debs
matrix_mirrors
for k in "${kernels[@]}"; do
	! matrix_built_here "$k" || matrix_find_kernel_debs "$k"
done
matrix_build_overlay
matrix_pick_accel
matrix_say "run: $([ "$MODE" = suite ] && echo "suite $SUITE" || echo vendor), $INITS init, kernels $KERNELS"
# What the report needs to be made again from the kept results (report-from.sh).
printf 'MODE=%q\nSUITE=%q\nINITS=%q\nVENDOR_DIR=%q\nVENDOR_TEST=%q\n' "$MODE" "$SUITE" "$INITS" \
	"${VENDOR_DIR:-}" "${VENDOR_TEST:-}" >"$MATRIX_DIR/run.env"
matrix_phase_done "inputs"

matrix_phase "kernels"
# Kernels are prepared one after the other (image, then the tests or the vendor build); each
# boot starts in the background as soon as its kernel is ready, at most CDEV_MATRIX_JOBS
# (default 2) guests at a time, so boots overlap the next image build. Each half runs in a
# subshell: errexit stays on inside, and one kernel's failure (recorded in
# build/matrix/<k>/result.env) does not stop the others. The slowest guests (timeout_factor > 1: lockdep
# and kmemleak under TCG) starts first; the report keeps the KERNELS order.
jobs_max=${CDEV_MATRIX_JOBS:-2}
order=()
for k in "${kernels[@]}"; do [ "$(kernel_field "$k" timeout_factor)" = 1 ] || order+=("$k"); done
for k in "${kernels[@]}"; do [ "$(kernel_field "$k" timeout_factor)" != 1 ] || order+=("$k"); done
for k in "${order[@]}"; do
	# (not "( ... ) || rc=$?": errexit would be off inside)
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
matrix_phase_done "kernels"

matrix_phase "report"
matrix_report "${kernels[@]}"
