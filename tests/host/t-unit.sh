#!/bin/bash
# t-unit.sh - run the unregister_chrdev() macro unit test (unit/unregister_test.c) in
# userspace against a mock kernel of each arity: dispatch, arguments evaluated once, int 0.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs gcc:gcc
work=$TEST_WORK/unit
mkdir -p "$work"
for args in 1 2; do
	for mode in void int; do
		flags=()
		[ "$mode" = void ] || flags=(-DCDEV_COMPAT_UNREGISTER_RETURNS_INT)
		bin=$work/unregister_test$args-$mode
		if gcc -std=gnu11 -Wall -Wextra -Werror -DMOCK_ARGS="$args" "${flags[@]}" \
			-I"$HOST_TESTS/unit/mock" -I"$CDEV_TOP/compat/include" -o "$bin" \
			"$HOST_TESTS/unit/unregister_test.c" 2>"$work/build$args-$mode.log"; then
			"$bin" || true
		else
			not_ok "unit test builds for a $args-arg kernel, $mode result, with -Wall -Wextra -Werror (log $work/build$args-$mode.log)"
		fi
	done
done
