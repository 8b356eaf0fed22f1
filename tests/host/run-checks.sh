#!/bin/bash
# run-checks.sh - `make check`: the host test suites, each a script printing "ok - ..." and
# "not ok - ..." lines (numbered TAP lines are accepted too). Prints them numbered (TAP), every
# suite's log and time, and last "N passed, N failed". Exits non-zero exactly when that line
# says a failure. Never loads kernel code.
#
#   tests/host/run-checks.sh [SUITE...]   e.g. run-checks.sh t-probes t-seed-corpus
#
# SUITE is a name under tests/host/ without .sh (../package/run for tests/package/run.sh) or
# the absolute path of a script. Besides its own "not ok" lines, a suite fails (one more
# "not ok" line each) when it
#   - exits non-zero (a crash, a `set -e` abort, a signal);
#   - runs longer than CDEV_CHECK_TIMEOUT seconds (default 3600; it is then killed);
#   - prints no result at all;
#   - declared a plan ("1..N" before its first result) and printed another number of results;
#   - prints "Bail out!" or a "# SKIP" result (make check has no optional test).
# Each suite's whole output is kept in build/host-tests/logs/<suite>.log; a suite that prints
# nothing for PROGRESS_INTERVAL seconds (default 60) gets a progress line.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs make:make gcc:gcc /usr/include/stdio.h:libc6-dev python3:python3 filterdiff:patchutils \
	patch:patch shellcheck:shellcheck timeout:coreutils
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
	suites=(t-runner t-unit t-helpers t-probes t-probe-cache t-kbuild t-class-shapes t-seed-corpus t-legacy-drivers t-style
		t-migrate t-migrate-corpus t-docs t-workflows t-matrix t-deb-cache)
	[ -x "$CDEV_TOP/tests/package/run.sh" ] && suites+=(../package/run)
	# The host mutants, unless this run is itself a mutant's test (tests/mutants/).
	[ -n "${CDEV_MUTANT:-}" ] || suites+=(t-mutants)
fi
timeout_s=${CDEV_CHECK_TIMEOUT:-3600}
interval=${PROGRESS_INTERVAL:-60}
logdir=$TEST_WORK/logs
mkdir -p "$logdir"

passed=0 failed=0 n=0
# suite_results / suite_plan / suite_bail: what the current suite printed.
suite_results=0 suite_plan='' suite_bail=0

# record LINE - count and print one line of a suite's output.
record() {
	local line=$1 desc
	case "$line" in
	"ok "* | "not ok "*)
		n=$((n + 1)) suite_results=$((suite_results + 1))
		desc=${line#not }
		desc=${desc#ok}
		desc=${desc# }
		# "ok 12 - x" and "ok - x" alike: drop the suite's own number.
		[[ $desc =~ ^[0-9]+( |$) ]] && desc=${desc#"${BASH_REMATCH[0]}"}
		desc=${desc#- }
		# A TAP directive: an unescaped "#" then SKIP (a "#" in a description is "\#").
		if [[ $line == "ok "* ]] && [[ ! $desc =~ (^|[^\\])\#[[:space:]]*[Ss][Kk][Ii][Pp] ]]; then
			passed=$((passed + 1))
			printf 'ok %d - %s\n' "$n" "$desc"
		else
			failed=$((failed + 1))
			[[ $line == "ok "* ]] && desc+=" (a skip: make check has no optional test)"
			printf 'not ok %d - %s\n' "$n" "$desc"
		fi
		;;
	1..[0-9]*)
		if [ "$suite_results" -eq 0 ] && [ -z "$suite_plan" ]; then
			suite_plan=${line#1..}
			suite_plan=${suite_plan%% *}
			printf '# plan: %s results\n' "$suite_plan"
		else
			suite_fail "printed a plan ($line) after its first result or twice"
		fi
		;;
	"Bail out!"*)
		suite_bail=1
		printf '# %s\n' "$line"
		;;
	*) printf '# %s\n' "${line#\# }" ;;
	esac
}

# suite_fail WHY - one failed result for the current suite ($suite).
suite_fail() {
	n=$((n + 1)) failed=$((failed + 1))
	printf 'not ok %d - suite %s %s\n' "$n" "$suite" "$*"
}

# suite_path SUITE - the script of a suite name.
suite_path() {
	case "$1" in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$HOST_TESTS/$1.sh" ;;
	esac
}

total_start=$(date +%s.%N)
for suite in "${suites[@]}"; do
	script=$(suite_path "$suite")
	name=$(basename "$script" .sh)
	[ "${suite#../}" = "$suite" ] || name=$(basename "$(dirname "$script")")-$name
	logf=$logdir/$name.log
	statusf=$logdir/$name.status
	rm -f "$statusf"
	start=$(date +%s.%N)
	start_s=$(date +%s)
	printf '# suite %s (log %s)\n' "$suite" "$logf"
	suite_results=0 suite_plan='' suite_bail=0
	if [ ! -x "$script" ]; then
		suite_fail "is missing or not executable ($script)"
		continue
	fi
	# The suite's status goes to a file: the process substitution inherits set -e, so an
	# "echo $?" after a failed suite would never run there.
	exec 3< <(
		set +e
		timeout --kill-after=30 "$timeout_s" "$script" 2>&1 </dev/null | tee "$logf"
		printf '%s\n' "${PIPESTATUS[0]}" >"$statusf"
	)
	reader=$!
	partial='' last_out=$start_s
	while :; do
		if IFS= read -r -t "$interval" line <&3; then
			record "$partial$line"
			partial='' last_out=$(date +%s)
		else
			rc=$?
			if [ "$rc" -gt 128 ]; then
				# Nothing for a while: keep what came of a line, say where the suite is.
				partial+=$line
				now=$(date +%s)
				if [ $((now - last_out)) -ge "$interval" ]; then
					printf '# suite %s: %s elapsed, %d results so far%s; log %s\n' "$suite" \
						"$(fmt_secs $((now - start_s)))" "$suite_results" \
						"${suite_plan:+ of $suite_plan planned}" "$logf"
					last_out=$now
				fi
				continue
			fi
			# End of the output; a last line without a newline still counts.
			[ -z "$partial$line" ] || record "$partial$line"
			break
		fi
	done
	exec 3<&-
	wait "$reader" 2>/dev/null || true
	status=$(cat "$statusf" 2>/dev/null || echo unknown)
	case "$status" in
	0) ;;
	124 | 137) suite_fail "timed out after ${timeout_s}s (CDEV_CHECK_TIMEOUT) and was killed (status $status)" ;;
	unknown) suite_fail "left no exit status" ;;
	*) suite_fail "exited with status $status$([ "$status" -gt 128 ] && printf ' (signal %d)' $((status - 128)))" ;;
	esac
	[ "$suite_bail" -eq 0 ] || suite_fail "bailed out"
	if [ "$suite_results" -eq 0 ]; then
		suite_fail "printed no result"
	elif [ -n "$suite_plan" ] && [ "$suite_results" -ne "$suite_plan" ]; then
		suite_fail "printed $suite_results results but planned $suite_plan"
	fi
	printf '# suite %s: %ss\n' "$suite" "$(elapsed "$start")"
done
printf '# all suites: %ss\n' "$(elapsed "$total_start")"
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
