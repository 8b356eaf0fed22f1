#!/bin/bash
# t-helpers.sh - the cdev-compat helpers (register, unregister, nodes, class_create, redirect)
# in userspace against the model of the kernel in unit/mock-kernel/, as a two-file module
# (unit/helpers_test.c defines the helpers, unit/helpers_b.c only calls them), for both
# unregister_chrdev() arities and both class_create() forms, with kobject releases at once and
# late (CONFIG_DEBUG_KOBJECT_RELEASE's model), with AddressSanitizer and UBSan: a
# use-after-free, a leak the model counts, or a crash is a failure.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs gcc:gcc /usr/include/stdio.h:libc6-dev
work=$TEST_WORK/helpers
rm -rf "$work"
mkdir -p "$work"
unit=$HOST_TESTS/unit
for args in 1 2; do
	for owner in 1 0; do
	for delayed in 0 1; do
		name=helpers-$args-arg-owner$owner
		[ "$delayed" = 0 ] || name+=-delayed
		if ! gcc -std=gnu11 -Wall -Wextra -Werror -g -O1 -fsanitize=address,undefined \
			-fno-sanitize-recover=all -fno-omit-frame-pointer \
			-DMOCK_ARGS="$args" -DMOCK_CLASS_OWNER="$owner" -DMOCK_DELAYED_RELEASE="$delayed" \
			-DCDEV_COMPAT_REDIRECT_REGISTER_CHRDEV -DCDEV_COMPAT_REDIRECT_MODULE_WIDE \
			-DCDEV_COMPAT_MOCK_DEVNODE_CONST=$((1 - owner)) \
			-I"$unit/mock-kernel" -I"$CDEV_TOP/compat/include" -o "$work/$name" \
			"$unit/helpers_test.c" "$unit/helpers_b.c" "$unit/mock-kernel/mock_kernel.c" \
			>"$work/$name.build.log" 2>&1; then
			not_ok "$name builds with -Wall -Wextra -Werror and sanitizers (log $work/$name.build.log)"
			continue
		fi
		status=0
		"$work/$name" >"$work/$name.out" 2>&1 || status=$?
		grep -E '^(not )?ok ' "$work/$name.out" || true
		n=$(grep -cE '^(not )?ok ' "$work/$name.out" || true)
		# shellcheck disable=SC2016 # expanded by eval
		check "$name: exits 0 after all its checks, with no sanitizer report (status $status, $n checks; output $work/$name.out)" \
			eval '[ "$status" -eq 0 ] && [ "$n" -ge 50 ] && ! grep -q "ERROR: AddressSanitizer\|runtime error:" "$work/$name.out"'
	done
	done
done
