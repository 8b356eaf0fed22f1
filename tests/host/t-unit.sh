#!/bin/bash
# t-unit.sh - run the unregister_chrdev() macro unit test (unit/unregister_test.c) in
# userspace against a mock kernel of each arity: dispatch, arguments evaluated once, void by
# default, int 0 with CDEV_COMPAT_UNREGISTER_RETURNS_INT. The binary prints its own result
# lines (unbuffered); one more line per binary says it ran to its end: a crash, an exit status
# that disagrees with its results or no result at all is a failure, whatever it printed before.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs gcc:gcc /usr/include/stdio.h:libc6-dev
work=$TEST_WORK/unit
mkdir -p "$work"
for args in 1 2; do
	for mode in void int; do
		flags=()
		[ "$mode" = void ] || flags=(-DCDEV_COMPAT_UNREGISTER_RETURNS_INT)
		bin=$work/unregister_test$args-$mode
		rm -f "$bin"
		if ! gcc -std=gnu11 -Wall -Wextra -Werror -DMOCK_ARGS="$args" "${flags[@]}" \
			-I"$HOST_TESTS/unit/mock" -I"$CDEV_TOP/compat/include" -o "$bin" \
			"$HOST_TESTS/unit/unregister_test.c" 2>"$work/build$args-$mode.log"; then
			not_ok "unit test builds for a $args-arg kernel, $mode result, with -Wall -Wextra -Werror (log $work/build$args-$mode.log)"
			continue
		fi
		rc=0
		"$bin" >"$work/out$args-$mode.txt" 2>&1 || rc=$?
		cat "$work/out$args-$mode.txt"
		results=$(grep -cE '^(not )?ok ' "$work/out$args-$mode.txt" || true)
		fails=$(grep -cE '^not ok ' "$work/out$args-$mode.txt" || true)
		why="status $rc"
		[ "$rc" -le 128 ] || why+=", killed by signal $((rc - 128))"
		# Status 1 is the binary's own "a check failed", with its "not ok" lines above.
		check "unit test for a $args-arg kernel, $mode result, ran to its end ($why, $results results, $fails failed)" \
			eval "[ $results -gt 0 ] && { { [ $rc -eq 0 ] && [ $fails -eq 0 ]; } || { [ $rc -eq 1 ] && [ $fails -gt 0 ]; }; }"
	done
done
