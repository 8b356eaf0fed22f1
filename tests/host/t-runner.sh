#!/bin/bash
# t-runner.sh - the runners count every failure: fake suites, unit binaries, build steps, guest
# scripts and doc blocks fed to the real runners (run-checks.sh, t-unit.sh, run-all.sh,
# tests/guest/run-guest-tests.sh, new_diagnostics, run-doc-blocks.sh, run-mutants.sh) in scratch
# copies under build/host-tests/runner. Each case is one way issue 11 found a failure to be hidden; each
# check fails on the old behaviour. Nothing here loads kernel code or changes this machine.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

plan 56
work=$TEST_WORK/runner
rm -rf "$work"
mkdir -p "$work/suites"

# esc TEXT - TEXT for a result description: a "#" escaped as TAP wants ("\#"), so that quoted
# output is not read as a directive.
esc() { printf '%s' "${1//#/\\#}"; }

# suite NAME BODY - a fake host suite.
suite() {
	printf '#!/bin/bash\n%s\n' "$2" >"$work/suites/$1.sh"
	chmod +x "$work/suites/$1.sh"
}

# run_checks NAME SUITE... - run-checks.sh on fake suites; output in $work/NAME.out, status in rc.
run_checks() {
	local name=$1 s args=()
	shift
	for s in "$@"; do args+=("$work/suites/$s.sh"); done
	rc=0
	BUILD_DIR=$work/build-$name TEST_WORK=$work/build-$name/host-tests \
		"$HOST_TESTS/run-checks.sh" "${args[@]}" >"$work/$name.out" 2>&1 || rc=$?
	last=$(tail -n1 "$work/$name.out")
}

# --- 1. run-checks.sh: exit status, crash, no result, plan, hang, skip ------------------------
suite good 'echo 1..2; echo "ok - one"; echo "ok 2 - two"'
run_checks good good
check "run-checks: a good suite passes (2 passed, 0 failed, exit 0; got '$last', exit $rc)" \
	test "$last" = "2 passed, 0 failed" -a "$rc" -eq 0
suite exit3 'echo "ok - x"; exit 3'
run_checks exit3 exit3
check "run-checks: 'ok - x' then exit 3 is a failure ('$last', exit $rc)" \
	eval "[ '$last' = '1 passed, 1 failed' ] && [ $rc -ne 0 ] && grep -q 'suite .*exit3.* exited with status 3' '$work/exit3.out'"
suite segv 'echo "ok - before the crash"; kill -SEGV $$'
run_checks segv segv
check "run-checks: a suite killed by a signal is a failure ('$last', exit $rc)" \
	eval "[ '$last' = '1 passed, 1 failed' ] && [ $rc -ne 0 ] && grep -q 'exited with status 139 (signal 11)' '$work/segv.out'"
suite setE 'set -e; echo "ok - a"; false; echo "ok - b"'
run_checks setE setE
check "run-checks: a set -e abort is a failure ('$last', exit $rc)" \
	test "$last" = "1 passed, 1 failed" -a "$rc" -ne 0
suite silent 'exit 0'
run_checks silent silent
check "run-checks: a suite that prints nothing is a failure ('$last', exit $rc)" \
	eval "[ '$last' = '0 passed, 1 failed' ] && [ $rc -ne 0 ] && grep -q 'printed no result' '$work/silent.out'"
suite short 'echo 1..3; echo "ok - a"; echo "ok - b"'
run_checks short short
check "run-checks: fewer results than planned is a failure ('$last', exit $rc)" \
	eval "[ '$last' = '2 passed, 1 failed' ] && [ $rc -ne 0 ] && grep -q 'printed 2 results but planned 3' '$work/short.out'"
suite long 'echo 1..1; echo "ok - a"; echo "ok - b"'
run_checks long long
check "run-checks: more results than planned is a failure ('$last', exit $rc)" \
	test "$last" = "2 passed, 1 failed" -a "$rc" -ne 0
suite skip 'echo "ok - a"; echo "ok - b # SKIP no tool"'
run_checks skip skip
check "run-checks: a '\\# SKIP' result is a failure ('$last', exit $rc)" \
	test "$last" = "1 passed, 1 failed" -a "$rc" -ne 0
suite hang 'echo "ok - a"; sleep 300; echo "ok - b"'
start=$(date +%s)
CDEV_CHECK_TIMEOUT=3 PROGRESS_INTERVAL=1 run_checks hang hang good
took=$(($(date +%s) - start))
check "run-checks: a hanging suite is killed at CDEV_CHECK_TIMEOUT and counted; the next suite runs ('$last', exit $rc, ${took}s)" \
	eval "[ '$last' = '3 passed, 1 failed' ] && [ $rc -ne 0 ] && [ $took -lt 60 ] && grep -q 'timed out after 3s' '$work/hang.out'"
check "run-checks: a silent suite gets progress lines naming its log" \
	grep -qE '^# suite .*hang.*: 0m0[1-9]s elapsed, 1 results so far; log .*hang\.log' "$work/hang.out"
# A suite that has printed nothing yet when its first progress line is due (a first npm or
# apt install): the line says 0 results, and the run goes on.
suite quiet 'sleep 3; echo "ok - late"'
PROGRESS_INTERVAL=1 run_checks quiet quiet
check "run-checks: a suite with no result yet gets '0 results so far' and still counts ('$last', exit $rc)" \
	eval "[ '$last' = '1 passed, 0 failed' ] && [ $rc -eq 0 ] && grep -qE '^# suite .*quiet.*: 0m0[1-9]s elapsed, 0 results so far' '$work/quiet.out'"
# The progress lines count the waited-for suite's results so far; the numbers of the results
# printed after them go on from the run's own count (1, 2, 3), not from that count.
suite slow3 'echo "ok - a"; echo "ok - b"; sleep 3; echo "ok - c"'
PROGRESS_INTERVAL=1 run_checks numbering good slow3
nums=$(grep -oE '^(not )?ok [0-9]+' "$work/numbering.out" | grep -oE '[0-9]+$' | tr '\n' ' ')
check "run-checks: results are numbered 1 to 5 across a progress line (got: $nums)" test "$nums" = "1 2 3 4 5 "
suite nonl 'printf "ok - no newline at the end"'
run_checks nonl nonl
check "run-checks: a last result without a newline counts ('$last')" test "$last" = "1 passed, 0 failed"

# The whole set (no SUITE): each suite's wall and CPU seconds, and the run's, in
# $TEST_WORK/check-times for make bench; a run of named suites leaves that file alone.
ct=$work/check-times-project
mkdir -p "$ct/scripts" "$ct/tests/host"
cp "$CDEV_TOP/scripts/lib.sh" "$ct/scripts/"
cp "$HOST_TESTS/lib.sh" "$HOST_TESTS/run-checks.sh" "$ct/tests/host/"
cat >"$ct/tests/host/t-busy.sh" <<'SUITE'
#!/bin/bash
# busy until this shell has used 1 s of CPU, however fast or busy the machine is
f=$(mktemp)
while :; do
	for ((i = 0; i < 20000; i++)); do :; done
	times >"$f"
	read -r u _ <"$f"
	u=${u#*m}
	[ "${u%%.*}" -lt 1 ] || break
done
rm -f "$f"
echo "ok - busy"
SUITE
printf '#!/bin/bash\nsleep 1\necho "ok - idle"\n' >"$ct/tests/host/t-idle.sh"
chmod +x "$ct/tests/host/"t-*.sh
ctw=$work/check-times-work
rc=0
BUILD_DIR=$ct/build TEST_WORK=$ctw "$ct/tests/host/run-checks.sh" >"$work/check-times.out" 2>&1 || rc=$?
times_got=$({ tr '\n' ';' <"$ctw/check-times"; } 2>/dev/null || true)
# times_kept - the busy suite's CPU at least its second and at most its wall, the sleeping
# one's near none, the run's line: its wall at least the longest suite's, its CPU their sum.
times_kept() {
	[ "$rc" -eq 0 ] && [ -f "$ctw/check-times" ] && awk '$1 == "t-busy" && $3 >= 1 && $3 <= $2 + 0.1 { b = 1; bw = $2; bc = $3 }
		$1 == "t-idle" && $2 >= 0.9 && $3 < 0.3 { i = 1; iw = $2; ic = $3 }
		$1 == "all" { a = ($2 + 0.1 >= bw && $2 + 0.1 >= iw && $3 >= bc + ic - 0.1 && $3 <= bc + ic + 0.1) }
		END { exit !(b && i && a && NR == 3) }' "$ctw/check-times"
}
check "run-checks: the whole set keeps each suite's wall and CPU seconds, and the run's (exit $rc; got '$times_got')" \
	times_kept
BUILD_DIR=$ct/build TEST_WORK=$ctw "$ct/tests/host/run-checks.sh" t-idle >"$work/check-times-one.out" 2>&1 || true
check "run-checks: a run of named suites leaves the whole set's times as they were" \
	test -n "$times_got" -a "$({ tr '\n' ';' <"$ctw/check-times"; } 2>/dev/null)" = "$times_got"

# --- 2. t-unit.sh: a crash of the unit binary ------------------------------------------------
copy=$work/unit-copy
mkdir -p "$copy/scripts" "$copy/tests/host" "$copy/compat"
cp "$CDEV_TOP/scripts/lib.sh" "$copy/scripts/"
cp -r "$HOST_TESTS/lib.sh" "$HOST_TESTS/t-unit.sh" "$HOST_TESTS/unit" "$copy/tests/host/"
cp -r "$CDEV_TOP/compat/include" "$copy/compat/"
# The mock kernel crashes in the two-arg __unregister_chrdev(), which unregister_chrdev(M, N)
# reaches: every check before it printed "ok".
sed -i 's/^\(static void mock_record(.*\)$/\1/; /^static void mock_record/,/^}/ s/^\tmock_last.calls++;$/\tif (MOCK_ARGS == 2 \&\& name) __builtin_trap();\n\tmock_last.calls++;/' \
	"$copy/tests/host/unit/unregister_test.c"
grep -q '__builtin_trap' "$copy/tests/host/unit/unregister_test.c" || die "could not plant the crash in the unit test copy"
rc=0
BUILD_DIR=$copy/build "$copy/tests/host/t-unit.sh" >"$work/unit-crash.out" 2>&1 || rc=$?
crashes=$(grep -cE '^not ok - unit test for a 2-arg kernel, (void|int) result, ran to its end \(status 13[0-9], killed by signal' "$work/unit-crash.out" || true)
check "t-unit: a crash inside the mocked two-arg kernel is a failure for both result modes ($crashes of 2; $work/unit-crash.out)" \
	test "$crashes" -eq 2
check "t-unit: the one-arg binaries are still counted as passing beside it" \
	test "$(grep -c '^ok - unit test for a 1-arg kernel, .* ran to its end' "$work/unit-crash.out")" -eq 2

# --- 3. run-all.sh: build steps count; last line and exit status agree -----------------------
fake=$work/run-all
# fake_tree DEB KERNEL MATRIX_OUT MATRIX_RC - a tree with run-all.sh and stubs of its parts.
fake_tree() {
	rm -rf "$fake"
	mkdir -p "$fake/tests/host" "$fake/tests/matrix" "$fake/tests/changes" "$fake/scripts" "$fake/kernel"
	cp "$CDEV_TOP/tests/run-all.sh" "$fake/tests/"
	cp "$CDEV_TOP/scripts/lib.sh" "$fake/scripts/"
	printf '#!/bin/sh\necho "ok - stub check"\necho "3 passed, 0 failed"\n' >"$fake/tests/host/run-checks.sh"
	printf '#!/bin/sh\necho building the deb\nexit %d\n' "$1" >"$fake/scripts/build-deb.sh"
	printf '#!/bin/sh\necho building the kernels\nexit %d\n' "$2" >"$fake/scripts/build-kernels.sh"
	printf '#!/bin/sh\necho "%s"\nexit %d\n' "$3" "$4" >"$fake/tests/matrix/run-matrix.sh"
	printf '#!/bin/sh\necho "ok - stub soak"\necho "2 passed, 0 failed"\n' >"$fake/tests/matrix/run-soak.sh"
	printf '#!/bin/sh\necho "ok - stub changes"\necho "1 passed, 0 failed"\n' >"$fake/tests/changes/run-corpus.sh"
	chmod +x "$fake"/tests/host/*.sh "$fake"/scripts/*.sh "$fake"/tests/matrix/*.sh "$fake"/tests/changes/*.sh
	rc=0
	BUILD_DIR=$fake/build "$fake/tests/run-all.sh" >"$work/run-all.out" 2>&1 || rc=$?
	last=$(tail -n1 "$work/run-all.out")
}
fake_tree 0 0 "5 passed, 0 failed" 0
check "run-all: all parts pass: 3 + 3 mutants + 2 builds + 5 + 2 + 1 + 3 passed, exit 0 ('$last', exit $rc)" \
	test "$last" = "19 passed, 0 failed" -a "$rc" -eq 0
check "run-all: build/make-test-times holds each part's seconds, in order, then the total" \
	test "$(awk '$2 ~ /^[0-9]+[.][0-9]$/ { printf "%s ", $1 }' "$fake/build/make-test-times")" = \
	"check mutants make-deb make-kernel matrix soak changes kernel-package total "
fake_tree 1 0 "5 passed, 0 failed" 0
check "run-all: a failed build-deb.sh is counted, the matrix, soak and changes are not run on a stale .deb ('$last', exit $rc)" \
	eval "[ '$last' = '10 passed, 4 failed' ] && [ $rc -ne 0 ] && grep -q '^not ok - make deb failed with status 1' '$work/run-all.out'"
fake_tree 0 2 "5 passed, 0 failed" 0
check "run-all: a failed build-kernels.sh is counted, matrix, soak, changes and kernel package not run ('$last', exit $rc)" \
	test "$last" = "7 passed, 5 failed" -a "$rc" -ne 0
fake_tree 0 0 "5 passed, 0 failed" 2
check "run-all: a matrix that exits 2 with no failure in its count adds one ('$last', exit $rc)" \
	test "$last" = "19 passed, 1 failed" -a "$rc" -ne 0
fake_tree 0 0 "4 passed, 1 failed" 0
check "run-all: a matrix failure with exit 0: the exit status still agrees with the last line ('$last', exit $rc)" \
	test "$last" = "18 passed, 1 failed" -a "$rc" -ne 0
fake_tree 0 0 "no count at all" 0
check "run-all: a part that prints no count is a failure ('$last', exit $rc)" \
	test "$last" = "14 passed, 1 failed" -a "$rc" -ne 0

# --- 4. the guest runner: skips, required, exit status, silence, plan, death, hang -----------
g=$work/guest
mkdir -p "$g/tests.d"
cp "$CDEV_TOP/tests/guest/run-guest-tests.sh" "$g/"
cp -r "$CDEV_TOP/tests/guest/lib" "$g/"
# gscript NAME BODY - a fake guest script.
gscript() {
	# shellcheck disable=SC2016 # the fake script expands it
	printf '#!/bin/bash\n. "$(dirname "$0")/../lib/ktap.sh"\n%s\n' "$2" >"$g/tests.d/$1.sh"
}
gscript 10-good 'ktap_plan 2; ktap_ok a; ktap_ok b; ktap_done'
gscript 15-skip 'ktap_plan 1; ktap_skip feature "not on this kernel"; ktap_done'
gscript 20-required-raw 'ktap_plan 1; echo "ok 1 thing # SKIP not here"; ktap_done'
gscript 25-required-lib 'ktap_plan 1; ktap_skip thing "no facility"; ktap_done'
gscript 30-exit 'ktap_plan 1; ktap_ok a; ktap_done; exit 3'
gscript 35-silent 'exit 0'
gscript 40-short 'ktap_plan 3; ktap_ok a; ktap_ok b; ktap_done'
# shellcheck disable=SC2016 # the fake script expands it
gscript 45-died 'set -u; ktap_plan 2; ktap_ok a; echo "$undefined_variable"; ktap_ok b; ktap_done'
gscript 50-hang 'ktap_plan 1; sleep 300; ktap_ok a; ktap_done'
gscript 55-noplan 'ktap_ok a; ktap_done'
rc=0
CDEV_REQUIRE="20-required-raw 25-required-lib 99-absent" CDEV_GUEST_SCRIPT_TIMEOUT=3 \
	bash "$g/run-guest-tests.sh" >"$work/guest.out" 2>&1 || rc=$?
# parent N NAME - the runner's parent line for test N; pd: the same for a description.
parent() { grep -E "^(not )?ok $1 $2( |$)" "$work/guest.out" || true; }
pd() { esc "$(parent "$@")"; }
check "guest runner: a good script passes ('$(pd 1 10-good)')" test "$(parent 1 10-good)" = "ok 1 10-good"
check "guest runner: a script whose every test skipped is a skip, not a pass ('$(pd 2 15-skip)')" \
	test "$(parent 2 15-skip)" = "ok 2 15-skip # SKIP not on this kernel"
check "guest runner: a required script that skips fails ('$(pd 3 20-required-raw)')" \
	eval "[ '$(parent 3 20-required-raw)' = 'not ok 3 20-required-raw' ] && grep -q '^# 20-required-raw: required on this kernel, but skipped' '$work/guest.out'"
check "guest runner: ktap_skip in a required script is a failure ('$(pd 4 25-required-lib)')" \
	eval "[ '$(parent 4 25-required-lib)' = 'not ok 4 25-required-lib' ] && grep -q '^    not ok 1 thing' '$work/guest.out'"
check "guest runner: exit status 3 after passing results fails ('$(pd 5 30-exit)')" \
	test "$(parent 5 30-exit)" = "not ok 5 30-exit"
check "guest runner: a script that prints nothing fails ('$(pd 6 35-silent)')" \
	eval "[ '$(parent 6 35-silent)' = 'not ok 6 35-silent' ] && grep -q '^# 35-silent: printed no result' '$work/guest.out'"
check "guest runner: fewer results than planned fail, and the plan shown is the declared one ('$(pd 7 40-short)')" \
	eval "[ '$(parent 7 40-short)' = 'not ok 7 40-short' ] && grep -q '^# 40-short: printed 2 results but planned 3' '$work/guest.out' && grep -qx '    1..3' '$work/guest.out'"
check "guest runner: a script that dies before ktap_done fails ('$(pd 8 45-died)')" \
	eval "[ '$(parent 8 45-died)' = 'not ok 8 45-died' ] && grep -q '^# 45-died: ended before ktap_done' '$work/guest.out'"
check "guest runner: a hanging script is killed at its timeout and fails ('$(pd 9 50-hang)')" \
	eval "[ '$(parent 9 50-hang)' = 'not ok 9 50-hang' ] && grep -q '^# 50-hang: timed out after 3s' '$work/guest.out'"
check "guest runner: a required script that does not exist fails ('$(pd 11 99-absent)')" \
	test "$(parent 11 99-absent)" = "not ok 11 99-absent"
check "guest runner: summary and status: 2 passed, 8 failed, 1 skipped, exit 1 (exit $rc: $(esc "$(grep '^# cdev-compat-guest:' "$work/guest.out")"))" \
	eval "grep -qx '# cdev-compat-guest: 11 tests, 2 passed, 8 failed, 1 skipped' '$work/guest.out' && [ $rc -eq 1 ] && grep -qx '1..11' '$work/guest.out'"

# --- 4b. the guest tests' helpers (lib/shim.sh, bash builtins only) on a fixed /proc/devices --
cat >"$work/devices" <<'EOF'
Character devices:
  1 mem
  4 /dev/vc/0
 10 misc
 60 spill
 61 spill
 61 other
202 cpu/msr

Block devices:
  7 loop
  8 sd
EOF
helpers() {
	# shellcheck disable=SC2016 # the inner shell expands them
	PROC_DEVICES=$work/devices bash -c '. "$1/ktap.sh"; . "$1/shim.sh"; shift; "$@"' _ "$g/lib" "$@" 2>&1
}
got=$(helpers chrdevs | tr '\n' '|')
check "guest helpers: chrdevs lists the character devices only, in the kernel's order ('$got')" \
	test "$got" = "1 mem|4 /dev/vc/0|10 misc|60 spill|61 spill|61 other|202 cpu/msr|"
got="$(helpers major_of spill),$(helpers major_of cpu/msr),$(helpers major_of loop),$(helpers majors_of spill)"
check "guest helpers: major_of the first major, none for a block device; majors_of all ('$got')" \
	test "$got" = "60,202,,60 61 "
got="$(helpers major_lines 60),$(helpers major_lines 61),$(helpers major_lines 7)"
check "guest helpers: major_lines counts a char major's lines, none for a block major ('$got')" \
	test "$got" = "1,2,0"
got="$(helpers free_major 1 11),$(helpers free_major 60 61 || echo "status $?")"
check "guest helpers: free_major skips the listed majors, fails when none is free ('$got')" \
	test "$got" = "2,status 1"
old=$'10 misc\n2 b\n60 spill'
new=$'2 b\n10 misc\n3 c\n1 d\n60 spill'
got=$(helpers lines_added "$old" "$new" | tr '\n' '|')
check "guest helpers: lines_added on unsorted lists ('$got')" test "$got" = "3 c|1 d|"
got=$(helpers lines_added "$old" "$new" ';')
check "guest helpers: lines_added with a separator ('$got')" test "$got" = "3 c;1 d;"
got=$(helpers lines_changed $'1 a\n2 b' $'2 b\n3 c')
check "guest helpers: lines_changed ('$got')" test "$got" = "-1 a;+3 c;"
got="$(helpers field minor 'dev=x major=10 minor=257 index=3'),$(helpers field id 'dev=x idx=1')"
check "guest helpers: field ('$got')" test "$got" = "257,"

# log_since on a stand-in dmesg: the lines after the last line holding the mark; and in linear
# time: 2 MB after the mark (what 20,000 late kobject releases log) took bash's
# ${log##*"$mark"} hours under TCG (45-lifetime-stress hung there), here a fraction of a second,
# so 20 s is a bound only a quadratic match reaches.
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec cat "%s/dmesg.txt"\n' "$work" >"$work/bin/dmesg"
chmod +x "$work/bin/dmesg"
printf '%s\n' "a" "cdev-compat-test: mark 1" "b" "x cdev-compat-test: mark 1 again" "c" "d" >"$work/dmesg.txt"
got=$(PATH=$work/bin:$PATH helpers log_since "cdev-compat-test: mark 1" | tr '\n' '|')
check "guest helpers: log_since gives the lines after the last line with the mark ('$got')" test "$got" = "c|d|"
{
	echo "cdev-compat-test: mark 2"
	for ((i = 0; i < 25000; i++)); do
		echo "kobject: 'cdev' (00000000f00d$i): kobject_release, parent 0000000000000000 (delayed 1000)"
	done
	echo "BUG: the last line"
} >"$work/dmesg.txt"
# shellcheck disable=SC2016 # the inner shell expands them
got=$(PATH=$work/bin:$PATH timeout 20 bash -c '. "$1/ktap.sh"; . "$1/shim.sh"; log_since "cdev-compat-test: mark 2" | wc -l' _ "$g/lib" 2>&1) ||
	got="status $? (124: timed out)"
check "guest helpers: log_since reads 2 MB after the mark within 20 s ('$got' lines, want 25001)" test "$got" = 25001

# --- 5. new diagnostics: every file's, sorted before comm --------------------------------------
printf '%s\n' "/x/cpuid.c:40:2: warning: b" "/x/cpuid.c:10:5: warning: a" >"$work/native.log"
printf '%s\n' "/y/cpuid.c:41:2: warning: b" "/i/cdev_compat.h:5:1: warning: unused variable 'z'" \
	"/y/cpuid.c:11:5: warning: a" "/k/fs.h:9:9: error: x" >"$work/compat.log"
got=$(new_diagnostics "$work/native.log" "$work/compat.log" | tr '\n' '|')
check "new_diagnostics keeps the compat header's and other headers' diagnostics, unsorted input ('$got')" \
	test "$got" = "cdev_compat.h: warning: unused variable 'z'|fs.h: error: x|"

# --- 6. doc blocks: never as root, never a module or package tool --------------------------------
marker=$(mktemp -u /tmp/cdev-compat-docs-marker.XXXXXX)
cat >"$work/doc.md" <<EOF
\`\`\`sh
test "\$(id -u)" -ne 0 || [ "$(id -u)" -ne 0 ]
\`\`\`
\`\`\`sh
touch $marker
modprobe cdev_shim
\`\`\`
\`\`\`sh
# skip: needs a guest
apt install ./cdev-compat-dkms.deb
\`\`\`
\`\`\`sh
"\$(printf mod)probe" cdev_shim
\`\`\`
\`\`\`sh
echo changed >>README.md
\`\`\`
EOF
readme=$(sha256sum <"$CDEV_TOP/README.md")
rc=0
"$HOST_TESTS/run-doc-blocks.sh" "$work/doc-blocks" "$work/doc.md" >"$work/doc.out" 2>&1 || rc=$?
check "doc blocks run as an unprivileged user ($(esc "$(grep -m1 'doc-1 ' "$work/doc.out" || true)"))" \
	grep -q '^ok - docs block doc-1 ' "$work/doc.out"
check "a doc block with modprobe is never run and fails ($(esc "$(grep -m1 'doc-2 ' "$work/doc.out" || true)"))" \
	eval "grep -q \"^not ok - docs block doc-2 would run 'modprobe'\" '$work/doc.out' && [ ! -e '$marker' ]"
check "a doc block marked skip is listed, not run" grep -q '^# doc-3 skipped: needs a guest' "$work/doc.out"
check "a module tool that slips past the check is refused by the stubs and fails ($(esc "$(grep -m1 'doc-4 ' "$work/doc.out" || true)"))" \
	grep -q '^not ok - docs block doc-4 .*refused: modprobe cdev_shim' "$work/doc.out"
check "doc blocks run in a throwaway copy: README.md unchanged" \
	eval "grep -q '^ok - docs block doc-5 ' '$work/doc.out' && [ \"\$(sha256sum <'$CDEV_TOP/README.md')\" = '$readme' ]"
rm -f "$marker"

# --- 7. run-mutants.sh: a mutant is stopped at its first deciding failure, its whole tree -----
# A fake project (git repository, the real run-mutants.sh, run-checks.sh and libraries) whose
# suites fail at once and then sleep: the runner must stop each at the "not ok" line that decides
# it (the Expect line's, when there is one, not an earlier one), leave no process of it behind
# (a suite runs under run-checks.sh's timeout, in a process group of its own), and still count a
# mutant whose test passes as survived.
need_pkgs pgrep:procps
mt=$work/mutants
rm -rf "$mt"
mkdir -p "$mt/scripts" "$mt/tests/host" "$mt/tests/mutants"
cp "$CDEV_TOP/scripts/lib.sh" "$mt/scripts/"
cp "$CDEV_TOP/tests/host/lib.sh" "$CDEV_TOP/tests/host/run-checks.sh" "$mt/tests/host/"
cp "$CDEV_TOP/tests/mutants/run-mutants.sh" "$mt/tests/mutants/"
printf 'a\n' >"$mt/victim.txt"
nap=$((3000 + $$ % 1000))
# mt_suite NAME BODY - a fake suite of the fake project.
mt_suite() {
	printf '#!/bin/bash\n%s\n' "$2" >"$mt/tests/host/$1.sh"
	chmod +x "$mt/tests/host/$1.sh"
}
mt_suite t-fails 'echo "ok - first"; echo "not ok - boom"; sleep '"$nap"
mt_suite t-late 'echo "not ok - another failure"; sleep 2; echo "not ok - the wanted failure"; sleep '"$nap"
mt_suite t-passes 'echo "ok - fine"'
# mt_mutant NAME TEST [EXPECT] - a mutant of the fake project (it changes victim.txt).
mt_mutant() {
	{
		printf 'Tag: host\nTest: %s\n' "$2"
		[ -z "${3:-}" ] || printf 'Expect: %s\n' "$3"
		printf 'Why: a fake\n\n--- a/victim.txt\n+++ b/victim.txt\n@@ -1 +1 @@\n-a\n+%s\n' "$1"
	} >"$mt/tests/mutants/$1.patch"
}
mt_mutant m-suite 'tests/host/run-checks.sh t-fails'
mt_mutant m-expect 'tests/host/run-checks.sh t-late' 'not ok [0-9]+ - the wanted failure'
mt_mutant m-direct 'tests/host/t-fails.sh'
mt_mutant m-survives 'tests/host/run-checks.sh t-passes'
git -C "$mt" init -q
rc=0
# Without the early stop each failing mutant would run to CDEV_MUTANT_TIMEOUT and then count
# as killed anyway: the checks below read the stop line, not the time.
env -u BUILD_DIR -u TEST_WORK CDEV_MUTANT_TIMEOUT=300 "$mt/tests/mutants/run-mutants.sh" --no-control \
	>"$work/mutants.out" 2>&1 || rc=$?
mrow() { grep -E "^$1 " "$work/mutants.out" || true; }
mstop() { grep -h '^# run-mutants.sh: stopped at: ' "$mt/build/mutants/logs/$1.log" 2>/dev/null || true; }
check "run-mutants: a suite's failure under run-checks.sh stops the mutant there ($(esc "$(mrow m-suite)"); $(esc "$(mstop m-suite)"))" \
	eval "[[ '$(mrow m-suite)' == *' killed '* ]] && [ '$(mstop m-suite)' = '# run-mutants.sh: stopped at: not ok 0 - boom' ]"
check "run-mutants: with an Expect line, the stop waits for the line it names ($(esc "$(mstop m-expect)"))" \
	eval "[[ '$(mrow m-expect)' == *' killed '* ]] && [ '$(mstop m-expect)' = '# run-mutants.sh: stopped at: not ok 0 - the wanted failure' ]"
check "run-mutants: a test's own failing output stops it too ($(esc "$(mstop m-direct)"))" \
	eval "[[ '$(mrow m-direct)' == *' killed '* ]] && [ -n '$(mstop m-direct)' ]"
check "run-mutants: a mutant whose test passes still survives, and the run fails ($(esc "$(mrow m-survives)"), exit $rc)" \
	eval "[[ '$(mrow m-survives)' == *' survived '* ]] && [ $rc -ne 0 ] && [ -z '$(mstop m-survives)' ]"
left=$(pgrep -f "sleep $nap" || true)
check "run-mutants: no process of a stopped test is left running (left: ${left:-none})" test -z "$left"
[ -z "$left" ] || xargs -r kill <<<"$left" 2>/dev/null || true
