#!/bin/bash
# run-checks.sh - `make check`: the host test suites, each a script printing "ok - ..." and
# "not ok - ..." lines (numbered TAP lines are accepted too). Prints them numbered (TAP), every
# suite's log and time, and last "N passed, N failed". Exits non-zero exactly when that line
# says a failure. Never loads kernel code.
#
#   tests/host/run-checks.sh [SUITE...]   e.g. run-checks.sh t-probes t-seed-corpus
#
# Without a SUITE: every tests/host/t-*.sh (a new suite is a new file there) but those whose
# header has a line "# Part: make test", then tests/package/run.sh.
# SUITE is a name under tests/host/ without .sh (../package/run for tests/package/run.sh) or
# the absolute path of a script. Besides its own "not ok" lines, a suite fails (one more
# "not ok" line each) when it
#   - exits non-zero (a crash, a `set -e` abort, a signal);
#   - runs longer than CDEV_CHECK_TIMEOUT seconds (default 3600; it is then killed);
#   - prints no result at all;
#   - declared a plan ("1..N" before its first result) and printed another number of results;
#   - prints "Bail out!" or a "# SKIP" result (make check has no optional test).
# Each suite's whole output is kept in build/host-tests/logs/<suite>.log. Suites run
# CDEV_CHECK_JOBS at a time (default 2); their results are printed in the listed order once each
# has ended, and while the run waits for one, a progress line every PROGRESS_INTERVAL seconds
# (default 60).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs make:make gcc:gcc /usr/include/stdio.h:libc6-dev python3:python3 filterdiff:patchutils \
	patch:patch shellcheck:shellcheck timeout:coreutils
suites=("$@")
whole_set=0
if [ ${#suites[@]} -eq 0 ]; then
	whole_set=1
	# Every tests/host/t-*.sh, but those whose header says "# Part: make test" (run by
	# tests/run-all.sh after the builds they need), then the package scenarios.
	# The package scenarios first: the longest suite (a quarter of the whole), started last it
	# would run alone at the end while the other slot idles.
	[ -x "$CDEV_TOP/tests/package/run.sh" ] && suites+=(../package/run)
	for f in "$HOST_TESTS"/t-*.sh; do
		grep -q '^# Part: make test' "$f" || suites+=("$(basename "$f" .sh)")
	done
fi
timeout_s=${CDEV_CHECK_TIMEOUT:-3600}
interval=${PROGRESS_INTERVAL:-60}
logdir=$TEST_WORK/logs
mkdir -p "$logdir"

passed=0 failed=0 n=0
# Each suite's "NAME WALL CPU" (seconds), and the run's "all WALL CPU" last: make bench prints the
# slowest suites of the last whole make check from it.
timesf=$TEST_WORK/check-times
rm -f "$timesf.tmp"

# suite_cpu FILE - the seconds of user and system time of the second line of the times
# builtin's output in FILE (its children: the suite's processes), "?" when it is unreadable.
suite_cpu() {
	awk 'NR == 2 {
		t = 0
		for (f = 1; f <= 2; f++) { split($f, a, /[ms]/); t += a[1] * 60 + a[2] }
		printf "%.1f", t; ok = 1
	} END { if (!ok) printf "?" }' "$1" 2>/dev/null || printf '?'
}
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

# Suites run CDEV_CHECK_JOBS at a time (default 2), each into its own log; their results are
# printed in the listed order, each suite's when it has ended. Suites that make the same cache
# entry wait for each other (flock in tests/host/lib.sh and need_pkgs), not for the whole run.
jobs=${CDEV_CHECK_JOBS:-2}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "CDEV_CHECK_JOBS is a number >= 1 (got '$jobs')"
declare -a script_of logf_of statusf_of start_of
for i in "${!suites[@]}"; do
	script_of[i]=$(suite_path "${suites[i]}")
	name=$(basename "${script_of[i]}" .sh)
	[ "${suites[i]#../}" = "${suites[i]}" ] || name=$(basename "$(dirname "${script_of[i]}")")-$name
	logf_of[i]=$logdir/$name.log
	statusf_of[i]=$logdir/$name.status
	rm -f "${statusf_of[i]}"
done

# start_suite I - run suite I in the background: its output to its log, then "STATUS END" (exit
# status, end time) to its status file, and the CPU time of the suite's processes (the times
# builtin: their user and system time, after the status file's "STATUS END") to STATUS-FILE.cpu.
start_suite() {
	local i=$1
	start_of[i]=$(date +%s.%N)
	if [ ! -x "${script_of[i]}" ]; then
		printf 'missing %s\n' "$(date +%s.%N)" >"${statusf_of[i]}"
		return 0
	fi
	(
		set +e
		timeout --kill-after=30 "$timeout_s" "${script_of[i]}" </dev/null >"${logf_of[i]}" 2>&1
		printf '%s %s\n' "$?" "$(date +%s.%N)" >"${statusf_of[i]}.tmp"
		times >"${statusf_of[i]}.cpu"
		mv "${statusf_of[i]}.tmp" "${statusf_of[i]}"
	) &
}

# fill_slots - start the next suites while fewer than $jobs run.
next=0
fill_slots() {
	local i busy=0
	for ((i = 0; i < next; i++)); do
		[ -f "${statusf_of[i]}" ] || busy=$((busy + 1))
	done
	while [ "$busy" -lt "$jobs" ] && [ "$next" -lt ${#suites[@]} ]; do
		start_suite "$next"
		next=$((next + 1)) busy=$((busy + 1))
	done
}

total_start=$(date +%s.%N)
for i in "${!suites[@]}"; do
	suite=${suites[i]}
	waited=$(date +%s)
	while fill_slots && [ ! -f "${statusf_of[i]}" ]; do
		sleep 1
		now=$(date +%s)
		if [ $((now - waited)) -ge "$interval" ]; then
			# (grep -c prints 0 and fails when nothing matches: no "|| echo 0" after it)
			# (so_far, not n: n numbers the results this script prints)
			so_far=$(grep -cE '^(not )?ok ' "${logf_of[i]}" 2>/dev/null) || true
			printf '# suite %s: %s elapsed, %d results so far; log %s\n' "$suite" \
				"$(fmt_secs $((now - ${start_of[i]%.*})))" "${so_far:-0}" "${logf_of[i]}"
			waited=$now
		fi
	done
	printf '# suite %s (log %s)\n' "$suite" "${logf_of[i]}"
	suite_results=0 suite_plan='' suite_bail=0
	read -r status end <"${statusf_of[i]}"
	if [ "$status" = missing ]; then
		suite_fail "is missing or not executable (${script_of[i]})"
		continue
	fi
	wall=$(awk -v s="${start_of[i]}" -v e="$end" 'BEGIN { printf "%.1f", e - s }')
	printf '%s %s %s\n' "$suite" "$wall" "$(suite_cpu "${statusf_of[i]}.cpu")" >>"$timesf.tmp"
	while IFS= read -r line || [ -n "$line" ]; do
		record "$line"
	done <"${logf_of[i]}"
	case "$status" in
	0) ;;
	124 | 137) suite_fail "timed out after ${timeout_s}s (CDEV_CHECK_TIMEOUT) and was killed (status $status)" ;;
	*) suite_fail "exited with status $status$([ "$status" -gt 128 ] && printf ' (signal %d)' $((status - 128)))" ;;
	esac
	[ "$suite_bail" -eq 0 ] || suite_fail "bailed out"
	if [ "$suite_results" -eq 0 ]; then
		suite_fail "printed no result"
	elif [ -n "$suite_plan" ] && [ "$suite_results" -ne "$suite_plan" ]; then
		suite_fail "printed $suite_results results but planned $suite_plan"
	fi
	printf '# suite %s: %ss\n' "$suite" "$wall"
done
wait
printf '# all suites: %ss\n' "$(elapsed "$total_start")"
# Each suite's wall and CPU seconds, for make bench; kept only from a run of the whole set.
if [ "$whole_set" -eq 1 ]; then
	printf 'all %s %s\n' "$(elapsed "$total_start")" "$(awk '{ s += $3 } END { printf "%.1f", s }' "$timesf.tmp")" >>"$timesf.tmp"
	mv "$timesf.tmp" "$timesf"
else
	rm -f "$timesf.tmp"
fi
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
