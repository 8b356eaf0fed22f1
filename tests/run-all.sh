#!/bin/bash
# run-all.sh - `make test`: the host checks (make check), the host mutants (t-mutants), the
# builds the matrix uses (make deb,
# make kernel), the kernel matrix (make matrix), the soak (make soak), then the checks of the built one-arg kernel's
# headers package (t-onearg-package); prints each part's summary and, last, the sum:
# "N passed, N failed". Every part counts: a build that fails is one failed result (and the
# parts that need it are not run: one failed result each), a part that exits non-zero without
# a failure in its own count, or prints no count, adds one. The exit status is non-zero
# exactly when the last line counts a failure. Each part's wall time goes to
# build/make-test-times (PART SECONDS a line, then "total"), which `make bench` prints.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

total_passed=0 total_failed=0
mkdir -p "$BUILD_DIR"
times=$BUILD_DIR/make-test-times
run_start=$(date +%s.%N)
: >"$times.tmp"

# timed NAME CMD... - run CMD, append "NAME SECONDS" to the times file, return CMD's status.
timed() {
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s.%N)
	"$@" || rc=$?
	printf '%s %s\n' "${name// /-}" "$(elapsed "$t0")" >>"$times.tmp"
	return "$rc"
}

own_failures=() part_outputs=()
result() {
	if [ "$1" = ok ]; then
		total_passed=$((total_passed + 1))
	else
		total_failed=$((total_failed + 1))
		own_failures+=("${*:2}")
	fi
	shift
	printf '%s\n' "$*"
}

# run_part NAME CMD... - run one part, echo its output, add its closing counts.
run_part() {
	local name=$1 out rc=0 last p f
	shift
	out=$BUILD_DIR/$name.out
	part_outputs+=("$out")
	log "$name: $* (output also in $out)"
	timed "$name" "$@" 2>&1 | tee "$out" || rc=${PIPESTATUS[0]}
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n1 || true)
	if [ -z "$last" ]; then
		result fail "not ok - $name printed no \"N passed, N failed\" line (status $rc; output $out)"
		return
	fi
	p=${last%% passed*}
	f=${last#*passed, }
	f=${f%% failed*}
	total_passed=$((total_passed + p)) total_failed=$((total_failed + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		result fail "not ok - $name exited with status $rc although it counted no failure (output $out)"
	fi
}

# run_step NAME CMD... - one build step: one result line, ok when CMD exits 0.
run_step() {
	local name=$1 out rc=0
	shift
	out=$BUILD_DIR/$name.out
	log "$name: $* (output also in $out)"
	timed "$name" "$@" 2>&1 | tee "$out" || rc=${PIPESTATUS[0]}
	if [ "$rc" -eq 0 ]; then
		result ok "ok - $name"
	else
		result fail "not ok - $name failed with status $rc (output $out)"
	fi
	return "$rc"
}

run_part check "$CDEV_TOP/tests/host/run-checks.sh"
run_part mutants "$CDEV_TOP/tests/host/run-checks.sh" t-mutants
# What the matrix installs and boots, fresh from this tree (both cached by their inputs). The
# matrix never runs on a stale .deb or kernel.
deb_ok=1 kernel_ok=1
run_step "make deb" "$CDEV_TOP/scripts/build-deb.sh" || deb_ok=0
run_step "make kernel" "$CDEV_TOP/scripts/build-kernels.sh" || kernel_ok=0
if [ "$deb_ok" -eq 1 ] && [ "$kernel_ok" -eq 1 ]; then
	run_part matrix "$CDEV_TOP/tests/matrix/run-matrix.sh"
	# Three guests at a time in the soak and the corpus runs (the matrix's default is two): the
	# debug one-arg guests spend much of their run waiting for late kobject releases with their
	# vCPUs idle, and a third guest uses those cores meanwhile.
	run_part soak env CDEV_SOAK_LONG=0 CDEV_MATRIX_JOBS=3 "$CDEV_TOP/tests/matrix/run-soak.sh"
	run_part changes env CDEV_MATRIX_JOBS=3 "$CDEV_TOP/tests/changes/run-corpus.sh"
else
	result fail "not ok - matrix not run: the .deb or the kernel it needs did not build"
	result fail "not ok - soak not run: the .deb or the kernel it needs did not build"
	result fail "not ok - changes not run: the .deb or the kernel it needs did not build"
fi
if [ "$kernel_ok" -eq 1 ]; then
	run_part kernel-package "$CDEV_TOP/tests/host/run-checks.sh" t-onearg-package t-kernel-exports
else
	result fail "not ok - kernel-package not run: the one-arg kernel did not build"
fi
printf 'total %s\n' "$(elapsed "$run_start")" >>"$times.tmp"
mv "$times.tmp" "$times"
# The failures again, last, where a reader of only the end of the output sees them: each part's
# "not ok" lines and the matrix report's "KERNEL: fail|hang|error|prepared: why" lines (its
# output file named), then this script's own.
if [ "$total_failed" -gt 0 ]; then
	echo "# the failed results, by part:"
	for out in "${part_outputs[@]}"; do
		grep -E '^(not ok|[A-Za-z0-9._-]+: (fail|hang|error|prepared): )' "$out" | head -n 20 | sed "s|^|# $(basename "$out" .out): |" || true
	done
	for line in "${own_failures[@]}"; do
		printf '# run-all: %s\n' "$line"
	done
fi
printf '%d passed, %d failed\n' "$total_passed" "$total_failed"
[ "$total_failed" -eq 0 ]
