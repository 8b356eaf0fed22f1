#!/bin/bash
# shellcheck disable=SC2016 # check commands in single quotes are eval'd, and expand there
# t-matrix-command.sh - scripts/cdev-compat-matrix, the vendor matrix's command: --help and the
# man page made from it (every option in both, the page renders without a groff warning), the
# options it passes on to the matrix, bad input (status 2, a message naming it, nothing
# removed), and its exit status from what the matrix did: 0 all passed, 1 a cell failed (a
# table was written), 2 the matrix stopped before its table. The matrix itself is a stub here
# (t-matrix and the matrix runs test it).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs groff:groff-base man:man-db
cmd=$CDEV_TOP/scripts/cdev-compat-matrix
work=$TEST_WORK/matrix-command
rm -rf "$work"
mkdir -p "$work"

help=$("$cmd" --help)
"$cmd" --man >"$work/page.1"
for opt in --module --test --kernels --suite --test-timeout --guest-root --output --clean \
	--list-kernels --help --version; do
	check "--help names $opt" grep -q -- "$opt\\b" <<<"$help"
	check "the man page names $opt" grep -q -- "${opt//-/\\\\-}\\b" "$work/page.1"
	# every documented option is one the parser takes
	check "the parser takes $opt" grep -qE "^\\s+(-[a-z] \\| )?${opt}[ )|=]" "$cmd"
done
check "--help lists the exit statuses 0, 1, 2" eval 'grep -qE "^  0  " <<<"$help" && grep -qE "^  1  " <<<"$help" && grep -qE "^  2  " <<<"$help"'
warn=$(groff -man -ww -z "$work/page.1" 2>&1 || true)
check "the man page renders without a groff warning${warn:+ ($warn)}" test -z "$warn"
check "the man page has NAME, SYNOPSIS, OPTIONS, EXIT STATUS" \
	eval 'grep -q "^.SH NAME" "$work/page.1" && grep -q "^.SH SYNOPSIS" "$work/page.1" && grep -q "^.SH OPTIONS" "$work/page.1" && grep -q "^.SH EXIT STATUS" "$work/page.1"'
kernels=$("$cmd" --list-kernels)
check "--list-kernels prints the kernels' table" grep -q "^| onearg-newest |" <<<"$kernels"

# A fake project: run-matrix.sh records its environment and arguments, writes a table when
# told to, and exits with the status it is told.
fake=$work/top
mkdir -p "$fake/tests/matrix" "$fake/scripts" "$fake/debian"
cp "$cmd" "$fake/scripts/"
cat >"$fake/tests/matrix/run-matrix.sh" <<'EOS'
#!/bin/bash
out=${CDEV_MATRIX_OUTPUT:-$BUILD_DIR/matrix}
mkdir -p "$out"
printf 'MODULE=%s\nMODULE_TEST=%s\nKERNELS=%s\nMODULE_TEST_TIMEOUT=%s\nMODULE_GUEST_ROOT=%s\nARGS=%s\n' \
	"$MODULE" "$MODULE_TEST" "${KERNELS:-}" "${MODULE_TEST_TIMEOUT:-}" "${MODULE_GUEST_ROOT:-}" "$*" >"$FAKE_SEEN"
[ "$FAKE_TABLE" = 0 ] || printf 'x\n3 passed, %s failed\n' "$FAKE_FAILED" >"$out/summary.txt"
exit "$FAKE_RC"
EOS
chmod +x "$fake/tests/matrix/run-matrix.sh"
mkdir -p "$work/mod"
: >"$work/mod/Kbuild"
: >"$work/test.sh"
# run_fake RC TABLE FAILED ARGS... - the command's status with the fake matrix.
run_fake() {
	local rc=0
	FAKE_RC=$1 FAKE_TABLE=$2 FAKE_FAILED=$3 FAKE_SEEN=$work/seen BUILD_DIR=$work/build \
		CDEV_COMPAT_MATRIX_TOP='' "$fake/scripts/cdev-compat-matrix" "${@:4}" >"$work/out" 2>&1 || rc=$?
	echo "$rc"
}
check "all passed: status 0" test "$(run_fake 0 1 0 --module "$work/mod")" = 0
check "a cell failed (a table was written): status 1" test "$(run_fake 1 1 2 --module "$work/mod")" = 1
check "the matrix stopped before its table: status 2" test "$(run_fake 1 0 0 --module "$work/mod")" = 2
check "... with a message saying so" grep -q "cannot run: the matrix stopped before its table" "$work/out"
run_fake 0 1 0 -m "$work/mod" --test="$work/test.sh" -k bookworm,onearg-nodebug --test-timeout 30 \
	--guest-root full -o "$work/results" >/dev/null
check "options reach the matrix as its environment" test "$(cat "$work/seen")" = "$(printf 'MODULE=%s\nMODULE_TEST=%s\nKERNELS=%s\nMODULE_TEST_TIMEOUT=%s\nMODULE_GUEST_ROOT=%s\nARGS=' \
	"$work/mod" "$work/test.sh" bookworm,onearg-nodebug 30 full)"
check "--output is where the table goes" test -f "$work/results/summary.txt"
run_fake 0 1 0 --suite soak >/dev/null
check "--suite is the matrix's argument" grep -qx 'ARGS=soak' "$work/seen"
KERNELS=trixie MODULE_TEST_TIMEOUT=9 run_fake 0 1 0 --module "$work/mod" >/dev/null
check "the environment make matrix used still works" grep -qx 'KERNELS=trixie' "$work/seen"

# Bad input: status 2, a message naming it, nothing run or removed.
bad() {
	local what=$1 want=$2
	shift 2
	rm -f "$work/seen"
	check "$what: status 2" test "$(run_fake 0 1 0 "$@")" = 2
	check "$what: the message names it" grep -q -- "$want" "$work/out"
	check "$what: the matrix did not run" test ! -e "$work/seen"
}
bad "an unknown option" "unknown argument '--bogus'" --bogus
bad "a module directory that does not exist" "no such directory" --module "$work/none"
bad "a test that does not exist" "no such file" --module "$work/mod" --test "$work/none.sh"
bad "--test without --module" "needs --module" --test "$work/test.sh"
bad "an option without its value" "needs a value" --kernels
bad "a test timeout that is not a number" "test-timeout" --module "$work/mod" --test-timeout soon
bad "a guest root that does not exist" "guest-root" --module "$work/mod" --guest-root tiny
bad "--suite with --module" "takes none" --module "$work/mod" --suite soak
mkdir -p "$work/precious"
echo keep >"$work/precious/file"
bad "--clean of a directory no run wrote" "not removing" --clean -o "$work/precious"
check "--clean of a directory no run wrote: its files are still there" test -f "$work/precious/file"
