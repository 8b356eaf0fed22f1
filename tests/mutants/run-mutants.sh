#!/bin/bash
# run-mutants.sh - `make mutants`: prove that the tests can fail. Each tests/mutants/*.patch is
# a small wrong change of the project plus the test command that must then fail; this applies
# it to a scratch copy (a clean export of the working tree, never the tree itself), runs the
# command there and prints one table: mutant, tag, killed or not, time. See README.md.
#
#   tests/mutants/run-mutants.sh [--guest] [--tap] [--no-control] [--skip-slow] [NAME...]
#   tests/mutants/run-mutants.sh --record NAME host|guest 'TEST COMMAND' ['EXPECT REGEX']
#
#   --guest       also the guest mutants (GUEST=1 in the environment does the same); they boot
#                 the matrix and take minutes each
#   --tap         "ok - ..."/"not ok - ..." lines as well (the t-mutants suite of make check)
#   --no-control  do not run each test command on the unmutated copy first (make check has
#                 just run the same suites)
#   --skip-slow   leave out the mutants with a "Slow:" header line (make test's t-mutants)
#   NAME...       only these mutants
#   CDEV_MUTANT_JOBS=N  mutants run at once, each in its own copy (default 2; 1 with --guest:
#                 a guest mutant boots a matrix that uses both cores)
#   --record      write the working tree's uncommitted change (git diff HEAD) as mutant NAME,
#                 then undo it in the working tree
#
# A mutant is killed when its command exits non-zero or prints a "not ok" line, and (when the
# mutant has an Expect: line) its output matches that extended regex. The control (each
# distinct command on the unmutated copy) must not match the Expect line, and must pass when
# the mutant has none (with one, a control that fails elsewhere is named, not fatal: the
# expected failure showing only with the mutant is the proof).
# Exits non-zero when a mutant survived, was killed for another reason, no longer applies, or
# a control failed. Scratch copies and logs: build/mutants/.
set -euo pipefail
# shellcheck source=../../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

here=$CDEV_TOP/tests/mutants
guest=0 tap=0 control=1 skip_slow=0 names=()
case "${GUEST:-}" in 1 | y | yes) guest=1 ;; esac

record() {
	local name=$1 tag=$2 test=$3 expect=${4:-} file diff
	[[ $name =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "mutant name '$name': lower case letters, digits and '-'"
	case "$tag" in host | guest) ;; *) die "tag '$tag': host or guest" ;; esac
	file=$here/$name.patch
	[ ! -e "$file" ] || die "$file exists"
	diff=$(git -C "$CDEV_TOP" diff -U1 HEAD -- . ":(exclude)tests/mutants")
	[ -n "$diff" ] || die "no uncommitted change to record (make the wrong change in the tree first)"
	{
		printf 'Tag: %s\nTest: %s\n' "$tag" "$test"
		[ -z "$expect" ] || printf 'Expect: %s\n' "$expect"
		printf 'Why: (say what this mutant breaks and which test must notice)\n\n'
		printf '%s\n' "$diff"
	} >"$file"
	printf '%s\n' "$diff" | git -C "$CDEV_TOP" apply -R ||
		die "wrote $file, but could not undo the change in the working tree"
	log "wrote $file (edit its Why: line) and undid the change in the working tree"
	exit 0
}

while [ $# -gt 0 ]; do
	case "$1" in
	--guest) guest=1 ;;
	--tap) tap=1 ;;
	--no-control) control=0 ;;
	--skip-slow) skip_slow=1 ;;
	--record)
		[ $# -ge 4 ] || die "usage: $0 --record NAME host|guest 'TEST COMMAND' ['EXPECT REGEX']"
		record "$2" "$3" "$4" "${5:-}"
		;;
	-*) die "unknown option $1 (see the header of $0)" ;;
	*) names+=("$1") ;;
	esac
	shift
done
need_pkgs git:git timeout:coreutils ps:procps

# field FILE KEY - a header field of a mutant (the lines before its diff).
field() {
	sed -n "/^\(diff \|--- \)/q; s/^$2: *//p" "$1" | head -n1
}

shopt -s nullglob
mutants=()
if [ ${#names[@]} -gt 0 ]; then
	for n in "${names[@]}"; do
		[ -f "$here/$n.patch" ] || die "no mutant $here/$n.patch"
		mutants+=("$here/$n.patch")
	done
else
	for m in "$here"/*.patch; do
		tag=$(field "$m" Tag)
		[ "$tag" = host ] || [ "$guest" -eq 1 ] || continue
		[ "$skip_slow" -eq 0 ] || [ -z "$(field "$m" Slow)" ] || continue
		mutants+=("$m")
	done
fi
[ ${#mutants[@]} -gt 0 ] || die "no mutant selected in $here"
for m in "${mutants[@]}"; do
	case "$(field "$m" Tag)" in host | guest) ;; *) die "$m: no 'Tag: host' or 'Tag: guest' line" ;; esac
	[ -n "$(field "$m" Test)" ] || die "$m: no 'Test:' line"
done

# The clean export: the working tree as it is (tracked and untracked files, not ignored ones,
# so build/ stays out), made a git repository of its own so that git-based scripts work.
work=$BUILD_DIR/mutants
rm -rf "$work"
mkdir -p "$work/logs"
base=$work/base
mkdir -p "$base"
git -C "$CDEV_TOP" ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		if [ -e "$CDEV_TOP/$f" ] || [ -L "$CDEV_TOP/$f" ]; then printf '%s\0' "$f"; fi
	done | tar -C "$CDEV_TOP" --null -T - -cf - | tar -C "$base" -xf -
git -C "$base" init -q
git -C "$base" add -A
git -C "$base" -c user.name=cdev-compat-mutants -c user.email=mutants@invalid commit -qm "clean export of $CDEV_TOP"

# in_copy DIR NAME TEST - run TEST in the copy DIR (its own build/, nothing of this run's
# environment that points at the working tree); returns its status.
in_copy() {
	local dir=$1 name=$2 test=$3
	cd "$dir" && env -u BUILD_DIR -u CDEV_TOP -u TEST_WORK CDEV_MUTANT="$name" \
		timeout --kill-after=60 "${CDEV_MUTANT_TIMEOUT:-5400}" bash -c "$test" </dev/null
}

# kill_tree PID - end PID and every process below it: stop them all first (so that none starts
# another meanwhile), then TERM and CONT, then KILL what is left after 30 s. A suite under
# run-checks.sh runs under its own timeout, in a process group of its own, so a TERM to the
# test's group alone would leave it running in the copy.
kill_tree() {
	local all=() new=("$1") p n alive
	while [ ${#new[@]} -gt 0 ]; do
		kill -STOP "${new[@]}" 2>/dev/null || true
		all+=("${new[@]}")
		mapfile -t new < <(ps -o pid= --ppid "$(
			IFS=,
			printf '%s' "${new[*]}"
		)" | tr -d ' ')
	done
	kill -TERM "${all[@]}" 2>/dev/null || true
	kill -CONT "${all[@]}" 2>/dev/null || true
	for ((n = 0; n < 30; n++)); do
		alive=0
		for p in "${all[@]}"; do
			if kill -0 "$p" 2>/dev/null; then
				alive=1
				break
			fi
		done
		[ "$alive" -eq 1 ] || return 0
		sleep 1
	done
	kill -KILL "${all[@]}" 2>/dev/null || true
}

# suite_logs DIR TEST - the live logs, in the copy DIR, of the suites that TEST names after
# run-checks.sh (run-checks.sh turns every "not ok" line of a suite's log into one of its own);
# nothing when TEST does not run run-checks.sh with suite names.
suite_logs() {
	local dir=$1 test=$2 w
	[[ $test == *run-checks.sh* ]] || return 0
	for w in ${test#*run-checks.sh}; do
		case "$w" in
		t-*) [[ $w =~ ^t-[a-z0-9-]+$ ]] && printf '%s\n' "$dir/build/host-tests/logs/$w.log" ;;
		../package/run) printf '%s\n' "$dir/build/host-tests/logs/package-run.log" ;;
		*) break ;;
		esac
	done
}

# kill_line LOG EXPECT LOGS... - the first line so far that decides the mutant killed, or
# nothing: a "not ok" line of the test's own output LOG as it stands, or of a named suite's live
# log as run-checks.sh will print it ("not ok N - ...", here N = 0), that matches EXPECT when
# there is one.
kill_line() {
	local logf=$1 expect=$2
	shift 2
	{
		grep -sh '^not ok ' "$logf"
		[ $# -eq 0 ] || grep -sh '^not ok ' "$@" | sed -E 's/^not ok +([0-9]+( |$))?(- )?/not ok 0 - /'
	} | grep -E -m1 -- "${expect:-.}" || true
}

# run_until_killed DIR NAME LABEL TEST EXPECT LOG - run TEST in the copy DIR (output to LOG) and
# stop it at the first line that already decides the mutant killed (kill_line): the rest of the
# run could only add failures. Returns the test's status (143 or so when stopped); sets
# stopped_on to that line. A control run is never stopped early.
run_until_killed() {
	local dir=$1 name=$2 label=$3 test=$4 expect=$5 logf=$6 pid start now ticked line rc=0 logs
	stopped_on=''
	mapfile -t logs < <(suite_logs "$dir" "$test")
	start=$(date +%s) ticked=$start
	log "$label: log $logf"
	in_copy "$dir" "$name" "$test" >"$logf" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		line=$(kill_line "$logf" "$expect" "${logs[@]}")
		if [ -n "$line" ]; then
			stopped_on=$line
			kill_tree "$pid"
			break
		fi
		now=$(date +%s)
		if [ $((now - ticked)) -ge "${PROGRESS_INTERVAL:-60}" ]; then
			log "$label: $(fmt_secs $((now - start))) elapsed"
			ticked=$now
		fi
	done
	wait "$pid" || rc=$?
	[ -z "$stopped_on" ] || printf '# run-mutants.sh: stopped at: %s\n' "$stopped_on" >>"$logf"
	log "$label: $(fmt_secs $(($(date +%s) - start))) (status $rc${stopped_on:+, stopped at its first deciding failure})"
	return "$rc"
}

# failed LOG STATUS - the test failed: non-zero status or a "not ok" line.
failed() {
	[ "$2" -ne 0 ] || grep -qE '^not ok' "$1"
}

# keep_guest_logs DIR DEST - a copy's guest logs (the matrix's console, KTAP and results per
# kernel, the table), kept under DEST before the copy is removed; nothing when it booted none.
keep_guest_logs() {
	local dir=$1/build/matrix dest=$2 f
	[ -d "$dir" ] || return 0
	(cd "$dir" && find . -maxdepth 2 \( -name console.log -o -name ktap.txt -o -name results.tsv \
		-o -name summary.txt \) -print0) | while IFS= read -r -d '' f; do
		mkdir -p "$dest/$(dirname "$f")"
		cp "$dir/$f" "$dest/$f"
	done
}

declare -A control_rc=() control_log=()
if [ "$control" -eq 1 ]; then
	i=0
	for m in "${mutants[@]}"; do
		test=$(field "$m" Test)
		[ -z "${control_rc[$test]+x}" ] || continue
		i=$((i + 1))
		dir=$work/control-$i
		cp -a "$base" "$dir"
		logf=$work/logs/control-$i.log
		rc=0
		with_progress "control $i: '$test' on the unmutated copy" "$logf" - - \
			in_copy "$dir" control "$test" || rc=$?
		control_rc[$test]=$rc control_log[$test]=$logf
		keep_guest_logs "$dir" "$work/logs/control-$i.guest"
		rm -rf "$dir"
	done
fi

# run_mutant I - apply mutant I to its own copy and run its test; writes its result word to
# $work/rows/I.result, the line to print to I.line and, last, its table row to I.row.
run_mutant() {
	local i=$1 m=${mutants[$1]} name tag test expect dir logf start result why note rc secs line stopped_on
	name=$(basename "$m" .patch)
	tag=$(field "$m" Tag)
	test=$(field "$m" Test)
	expect=$(field "$m" Expect)
	dir=$work/$name
	logf=$work/logs/$name.log
	start=$(date +%s)
	cp -a "$base" "$dir"
	result=killed why=''
	if ! git -C "$dir" apply --whitespace=nowarn "$m" 2>"$work/logs/$name.apply"; then
		result=no-apply why="git apply: $(head -n1 "$work/logs/$name.apply")"
	elif [ "$control" -eq 1 ] && [ -z "$expect" ] && failed "${control_log[$test]}" "${control_rc[$test]}"; then
		result=control-failed why="the unmutated copy fails too (status ${control_rc[$test]}; log ${control_log[$test]})"
	elif [ "$control" -eq 1 ] && [ -n "$expect" ] && grep -qE -- "$expect" "${control_log[$test]}"; then
		result=control-failed why="the unmutated copy's output matches the Expect line too (log ${control_log[$test]})"
	else
		# With an Expect line, the control need not pass as a whole: that the expected failure
		# shows only with the mutant is the proof; another failure of the control is named.
		note=''
		if [ "$control" -eq 1 ] && failed "${control_log[$test]}" "${control_rc[$test]}"; then
			note="; the unmutated copy fails elsewhere (status ${control_rc[$test]}, $(grep -cE '^not ok' "${control_log[$test]}" || true) not ok; log ${control_log[$test]})"
		fi
		rc=0
		run_until_killed "$dir" "$name" "mutant $name ($tag): $test" "$test" "$expect" "$logf" || rc=$?
		if [ -n "$stopped_on" ]; then
			why="stopped at: $stopped_on; log $logf$note"
		elif ! failed "$logf" "$rc"; then
			result=survived why="'$test' passed with the mutant applied (log $logf)"
		elif [ -n "$expect" ] && ! grep -qE -- "$expect" "$logf"; then
			result=wrong-kill why="failed (status $rc), but not with /$expect/ (log $logf)"
		else
			why="status $rc; log $logf$note"
		fi
	fi
	secs=$(($(date +%s) - start))
	keep_guest_logs "$dir" "$work/logs/$name.guest"
	rm -rf "$dir"
	if [ "$tap" -eq 0 ]; then
		line="$(basename "$0"): $name: $result ($why)"
	elif [ "$result" = killed ]; then
		line="ok - mutant $name ($tag) killed by $test ($why)"
	else
		line="not ok - mutant $name ($tag): $result: $why"
	fi
	printf '%s\n' "$line" >"$work/rows/$i.line"
	printf '%s\n' "$result" >"$work/rows/$i.result"
	printf '%-32s %-6s %-15s %7s\n' "$name" "$tag" "$result" "$(fmt_secs "$secs")" >"$work/rows/$i.row.tmp"
	mv "$work/rows/$i.row.tmp" "$work/rows/$i.row"
}

# Mutants run CDEV_MUTANT_JOBS at a time (default 2: most tests use one core), each in its own
# copy; their lines and rows come out in the listed order. Tests that share a cache entry wait
# for each other (flock), as the suites of make check do.
jobs=${CDEV_MUTANT_JOBS:-$([ "$guest" -eq 1 ] && echo 1 || echo 2)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "CDEV_MUTANT_JOBS is a number >= 1 (got '$jobs')"
mkdir -p "$work/rows"
rows=() bad=0 next=0 pids=()
for i in "${!mutants[@]}"; do
	while [ ! -f "$work/rows/$i.row" ]; do
		busy=0
		for ((j = i; j < next; j++)); do
			[ -f "$work/rows/$j.row" ] && continue
			kill -0 "${pids[j]}" 2>/dev/null || [ -f "$work/rows/$j.row" ] ||
				die "mutant $(basename "${mutants[j]}" .patch) ended without a result (logs: $work/logs/)"
			busy=$((busy + 1))
		done
		if [ "$busy" -lt "$jobs" ] && [ "$next" -lt ${#mutants[@]} ]; then
			run_mutant "$next" &
			pids[next]=$!
			next=$((next + 1))
		else
			sleep 1
		fi
	done
	rows+=("$(cat "$work/rows/$i.row")")
	[ "$(cat "$work/rows/$i.result")" = killed ] || bad=$((bad + 1))
	if [ "$tap" -eq 1 ]; then cat "$work/rows/$i.line"; else cat "$work/rows/$i.line" >&2; fi
done
wait

printf '%s%-32s %-6s %-15s %7s\n' "$([ "$tap" -eq 0 ] || printf '# ')" mutant tag result time
for r in "${rows[@]}"; do
	printf '%s%s\n' "$([ "$tap" -eq 0 ] || printf '# ')" "$r"
done
printf '%s%d mutants, %d killed, %d not\n' "$([ "$tap" -eq 0 ] || printf '# ')" "${#mutants[@]}" \
	$((${#mutants[@]} - bad)) "$bad"
[ "$bad" -eq 0 ]
