#!/bin/bash
# run-all.sh - `make test`: the host checks (make check), the kernel matrix (make matrix),
# then the checks of the built one-arg kernel's headers package (t-onearg-package); prints
# each part's summary and, last, the sum: "N passed, N failed".
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

total_passed=0 total_failed=0 status=0
# run_part NAME CMD... - run one part, echo its output, add its closing counts.
run_part() {
	local name=$1 out rc=0 last p f
	shift
	out=$BUILD_DIR/$name.out
	mkdir -p "$BUILD_DIR"
	"$@" 2>&1 | tee "$out" || rc=${PIPESTATUS[0]}
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n1 || true)
	if [ -z "$last" ]; then
		printf 'not ok - %s printed no "N passed, N failed" line (status %d)\n' "$name" "$rc"
		total_failed=$((total_failed + 1))
	else
		p=${last%% passed*}
		f=${last#*passed, }
		f=${f%% failed*}
		total_passed=$((total_passed + p)) total_failed=$((total_failed + f))
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			printf 'not ok - %s exited with status %d\n' "$name" "$rc"
			total_failed=$((total_failed + 1))
		fi
	fi
	[ "$rc" -eq 0 ] || status=1
}

run_part check "$CDEV_TOP/tests/host/run-checks.sh"
# What the matrix installs and boots, fresh from this tree (both cached by their inputs).
"$CDEV_TOP/scripts/build-deb.sh" || status=1
"$CDEV_TOP/kernel/build-kernel.sh" || status=1
run_part matrix "$CDEV_TOP/tests/matrix/run-matrix.sh"
run_part kernel-package "$CDEV_TOP/tests/host/run-checks.sh" t-onearg-package
printf '%d passed, %d failed\n' "$total_passed" "$total_failed"
exit "$status"
