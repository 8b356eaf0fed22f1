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
	if gcc -std=gnu11 -Wall -Wextra -Werror -DMOCK_ARGS="$args" -I"$HOST_TESTS/unit/mock" \
		-I"$CDEV_TOP/compat/include" -o "$work/unregister_test$args" \
		"$HOST_TESTS/unit/unregister_test.c" 2>"$work/build$args.log"; then
		"$work/unregister_test$args" || true
	else
		not_ok "unit test builds for a $args-arg kernel with -Wall -Wextra -Werror (log $work/build$args.log)"
	fi
done
