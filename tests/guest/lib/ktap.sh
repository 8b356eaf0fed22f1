# shellcheck shell=bash
# Helpers for tests/guest/tests.d/*.sh. A test script prints its plan and result lines through
# these; run-guest-tests.sh indents them as subtests, checks them against the plan and emits
# the parent result. Diagnostics go to stdout as "# ..." lines.
#
#   ktap_plan N        first: the number of results this script will print ("1..N"); the
#                      runner fails a script that prints another number
#   ktap_ok NAME / ktap_fail NAME [WHY...] / ktap_check NAME CMD...
#   ktap_skip NAME WHY a skip; where this script is required (ktap_required), a failure
#   ktap_done          last: the trailer the runner looks for (a script that dies before it
#                      fails), and the exit status: 0 if no subtest failed
#
# Required: the runner exports CDEV_REQUIRED, the scripts that must not skip on this kernel
# (see run-guest-tests.sh: the kernel command line's cdev_require=, and "Required-on: one-arg"
# in a script's header on a kernel whose unregister_chrdev() takes one argument).

KTAP_N=0
KTAP_FAILED=0
KTAP_SKIPPED=0
KTAP_SCRIPT=$(basename "$0" .sh)

ktap_plan() {
	printf '1..%d\n' "$1"
}

ktap_ok() {
	KTAP_N=$((KTAP_N + 1))
	printf 'ok %d %s\n' "$KTAP_N" "$1"
}

ktap_fail() {
	local name=$1
	shift
	KTAP_N=$((KTAP_N + 1))
	KTAP_FAILED=$((KTAP_FAILED + 1))
	[ $# -eq 0 ] || printf '# %s: %s\n' "$name" "$*"
	printf 'not ok %d %s\n' "$KTAP_N" "$name"
}

# ktap_required - this script must not skip on this kernel.
ktap_required() {
	case " ${CDEV_REQUIRED:-} " in
	*" $KTAP_SCRIPT "*) return 0 ;;
	esac
	return 1
}

ktap_skip() {
	if ktap_required; then
		ktap_fail "$1" "required on this kernel, cannot be skipped: ${2:-}"
		return
	fi
	KTAP_N=$((KTAP_N + 1))
	KTAP_SKIPPED=$((KTAP_SKIPPED + 1))
	printf 'ok %d %s # SKIP %s\n' "$KTAP_N" "$1" "${2:-}"
}

# ktap_check NAME CMD... - run CMD; ok if it exits 0, else not ok with its output as diagnostics.
ktap_check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ktap_ok "$name"
	else
		# Diagnostics come before the result line they explain.
		[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
		ktap_fail "$name" "command failed: $*"
	fi
}

ktap_diag() {
	printf '# %s\n' "$*"
}

# ktap_done - the trailer, then the exit status of the test script: 0 if no subtest failed.
ktap_done() {
	printf '# ktap-done: %d results, %d failed, %d skipped\n' "$KTAP_N" "$KTAP_FAILED" "$KTAP_SKIPPED"
	[ "$KTAP_FAILED" -eq 0 ]
}
