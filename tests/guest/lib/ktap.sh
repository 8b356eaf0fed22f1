# shellcheck shell=bash
# Helpers for tests/guest/tests.d/*.sh. A test script prints only result lines through these;
# run-guest-tests.sh adds the KTAP header and plan, indents them as subtests, and emits the
# parent result. Diagnostics go to stdout as "# ..." lines.

KTAP_N=0
KTAP_FAILED=0

# ktap_ok NAME / ktap_fail NAME [WHY...] / ktap_skip NAME WHY
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

ktap_skip() {
	KTAP_N=$((KTAP_N + 1))
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

# ktap_done - exit status of the test script: 0 if no subtest failed.
ktap_done() {
	[ "$KTAP_FAILED" -eq 0 ]
}
