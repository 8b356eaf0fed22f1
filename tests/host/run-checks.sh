#!/bin/bash
# run-checks.sh - `make check`: the host test suites, each a script printing "ok - ..." and
# "not ok - ..." lines. Prints them numbered (TAP), every suite's time, and last
# "N passed, N failed". Exits non-zero when anything failed. Never loads kernel code.
#
#   tests/host/run-checks.sh [SUITE...]   e.g. run-checks.sh t-probes t-seed-corpus
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs make:make gcc:gcc python3:python3 filterdiff:patchutils patch:patch shellcheck:shellcheck
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
	suites=(t-unit t-helpers t-probes t-probe-cache t-kbuild t-seed-corpus t-legacy-drivers t-style t-migrate t-docs t-workflows t-matrix)
	[ -x "$CDEV_TOP/tests/package/run.sh" ] && suites+=(../package/run)
fi

passed=0 failed=0 n=0
record() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) n=$((n + 1)) passed=$((passed + 1)); printf 'ok %d %s\n' "$n" "${line#ok }" ;;
		"not ok - "*) n=$((n + 1)) failed=$((failed + 1)); printf 'not ok %d %s\n' "$n" "${line#not ok }" ;;
		"ok "[0-9]*) n=$((n + 1)) passed=$((passed + 1)); printf 'ok %d %s\n' "$n" "${line#ok [0-9]* }" ;;
		"not ok "[0-9]*) n=$((n + 1)) failed=$((failed + 1)); printf 'not ok %d %s\n' "$n" "${line#not ok [0-9]* }" ;;
		*) printf '# %s\n' "${line#\# }" ;;
		esac
	done
}

total_start=$(date +%s.%N)
for suite in "${suites[@]}"; do
	start=$(date +%s.%N)
	printf '# suite %s\n' "$suite"
	status=0
	exec 3< <("$HOST_TESTS/$suite.sh" 2>&1; echo "__status $?")
	while IFS= read -r line <&3; do
		case "$line" in
		"__status "*) status=${line#__status } ;;
		*) record <<<"$line" ;;
		esac
	done
	exec 3<&-
	if [ "$status" -ne 0 ]; then
		record <<<"not ok - suite $suite exited with status $status"
	fi
	printf '# suite %s: %ss\n' "$suite" "$(elapsed "$start")"
done
printf '# all suites: %ss\n' "$(elapsed "$total_start")"
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
