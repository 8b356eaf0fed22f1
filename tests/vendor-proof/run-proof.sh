#!/bin/bash
# run-proof.sh - the vendor matrix on more than the project's own example (issue 15): runs
# `make matrix MODULE=DIR MODULE_TEST=DIR/test.sh` (tests/matrix/run-matrix.sh) for
#   tests/vendor-example                  the project's example vendor module
#   legacy cpuid, xz_dec_test             real legacy char drivers from Debian's
#                                         linux-source-6.1, standalone (stage.sh)
#   broken/twoarg-build                   fails to build on the two-arg kernels
#   broken/oops-on-load                   oopses in its init
#   broken/fails-test                     gives the wrong answer to its test
#   broken/hangs-test                     hangs in its test (MODULE_TEST_TIMEOUT=20)
# and checks that each shows exactly the cells it must: the working ones all ok, each broken
# one failing its own cells and no other. Keeps each run's table and logs in
# build/vendor-proof/<name>/, prints one line per module with its wall time, and last
# "N passed, N failed" (one per module whose cells were as expected). KERNELS as for the matrix
# (default: a vendor run's, the kernels whose description lists "vendor").
#   run-proof.sh [NAME...]    (default: all)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"

here=$CDEV_TOP/tests/vendor-proof
out=$BUILD_DIR/vendor-proof
# shellcheck source=../matrix/lib/kernels.sh
. "$CDEV_TOP/tests/matrix/lib/kernels.sh"
KERNELS=${KERNELS:-$MATRIX_KERNELS_VENDOR}
export KERNELS
IFS=, read -r -a kernels <<<"$KERNELS"
mkdir -p "$out"
"$here/stage.sh" "$out/staged" >/dev/null

# name dir expectation; the expectation is per kernel class (two = the four two-arg kernels):
# "all ok" or the cells build/load/test/unload/log as ok, FAIL (fail), HANG (hang), - .
declare -A dir_of=(
	[vendor-example]=$CDEV_TOP/tests/vendor-example
	[cpuid]=$out/staged/cpuid
	[xz_dec_test]=$out/staged/xz_dec_test
	[twoarg-build]=$here/broken/twoarg-build
	[oops-on-load]=$here/broken/oops-on-load
	[fails-test]=$here/broken/fails-test
	[hangs-test]=$here/broken/hangs-test
)
# expect NAME KERNEL - the cells NAME must show on KERNEL: "build load test unload log".
expect() {
	case "$1" in
	twoarg-build) if [ "$(kernel_field "$2" arity)" = 1 ]; then echo "ok ok ok ok ok"; else echo "fail - - - -"; fi ;;
	oops-on-load) echo "ok fail - - fail" ;;
	fails-test) echo "ok ok fail ok ok" ;;
	hangs-test) echo "ok ok hang ok ok" ;;
	*) echo "ok ok ok ok ok" ;;
	esac
}

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(vendor-example cpuid xz_dec_test twoarg-build oops-on-load fails-test hangs-test)
passed=0 failed=0
for name in "${names[@]}"; do
	[ -n "${dir_of[$name]:-}" ] || die "unknown module '$name' (known: ${!dir_of[*]})"
	dir=${dir_of[$name]}
	t0=$(date +%s.%N)
	rc=0
	MODULE=$dir MODULE_TEST=$dir/test.sh MODULE_TEST_TIMEOUT=20 \
		"$CDEV_TOP/tests/matrix/run-matrix.sh" >"$out/$name.log" 2>&1 || rc=$?
	wall=$(elapsed "$t0")
	rm -rf "${out:?}/$name"
	cp -r "$BUILD_DIR/matrix" "$out/$name"
	rm -rf "$out/$name/overlay"
	bad=''
	for k in "${kernels[@]}"; do
		got=$(
			# shellcheck disable=SC1090,SC1091
			. "$out/$name/$k/result.env" 2>/dev/null
			echo "${CELL_build:-?} ${CELL_load:-?} ${CELL_test:-?} ${CELL_unload:-?} ${CELL_log:-?}"
		)
		[ "$got" = "$(expect "$name" "$k")" ] || bad+="$k: got '$got', expected '$(expect "$name" "$k")'; "
	done
	# the exit status agrees: non-zero exactly when a cell failed
	want_rc=0
	for k in "${kernels[@]}"; do
		case " $(expect "$name" "$k") " in *" fail "* | *" hang "*) want_rc=1 ;; esac
	done
	if [ "$rc" -ne 0 ] && [ "$want_rc" -eq 0 ]; then bad+="exit status $rc; "; fi
	if [ "$rc" -eq 0 ] && [ "$want_rc" -eq 1 ]; then bad+="exit status 0 although cells failed; "; fi
	if [ -z "$bad" ]; then
		printf 'ok - %s: the expected cells on %s (%ss wall)\n' "$name" "$KERNELS" "$wall"
		passed=$((passed + 1))
	else
		printf 'not ok - %s: %s(%ss wall; %s)\n' "$name" "$bad" "$wall" "$out/$name.log"
		failed=$((failed + 1))
	fi
	sed -n '/^module /,/^logs:/p' "$out/$name/summary.txt" | sed 's/^/    /'
done
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
