#!/bin/bash
# t-docs.sh - the docs: every ```sh block of docs/*.md runs and exits 0, unless its first line
# is "# skip: <reason>" (listed), in a throwaway copy of the project as an unprivileged user
# (run-doc-blocks.sh; a block that would load a module or install a package is never run on
# this machine); docs/gen-man.sh checks the kernel-doc of every helper and writes the API man
# pages; the tool's man page renders without warnings.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs man:man-db
need_coccinelle
work=$TEST_WORK/docs
rm -rf "$work"
mkdir -p "$work"

# The ```sh blocks, where they can do no harm (run-doc-blocks.sh: a throwaway copy of the
# project, an unprivileged user; a block that would change this machine must be marked skip).
status=0
"$HOST_TESTS/run-doc-blocks.sh" "$work/blocks" "$CDEV_TOP"/docs/*.md >"$work/blocks.out" 2>&1 || status=$?
cat "$work/blocks.out"
runs=$(grep -cE '^(not )?ok - docs block' "$work/blocks.out" || true)
skips=$(grep -cE '^# [^ ]+ skipped: ' "$work/blocks.out" || true)
check "docs/*.md show runnable sh blocks, all handled ($runs run, $skips skipped; status $status; log $work/blocks.out)" \
	test $((runs + skips)) -gt 3 -a "$status" -eq 0
# The skipped blocks are exactly these, each run elsewhere or needing a machine this is not
# (their reasons say which), in C sort order: a new "# skip:" must be added here, on purpose.
expected_skips="image-builders-1 image-builders-2 image-builders-3 vendors-3 vendors-4"
got_skips=$(sed -nE 's/^# ([^ ]+) skipped: .*/\1/p' "$work/blocks.out" | LC_ALL=C sort | tr '\n' ' ')
got_skips=${got_skips% }
check "the skipped doc blocks are exactly: $expected_skips (got: ${got_skips:-none})" \
	test "$got_skips" = "$expected_skips"

status=0
"$CDEV_TOP/docs/gen-man.sh" >"$work/gen-man.log" 2>&1 || status=$?
check "docs/gen-man.sh: kernel-doc complete, pages written (status $status; log $work/gen-man.log)" test "$status" -eq 0
for fn in cdev_compat_region cdev_compat_register cdev_compat_register_chrdev cdev_compat_unregister cdev_compat_create_nodes cdev_compat_from_inode; do
	check "API man page $fn.3 renders and has NAME" \
		eval "man -l '$BUILD_DIR/man/$fn.3' 2>/dev/null | grep -q '$fn'"
done
warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$CDEV_TOP/docs/cdev-compat-migrate.1" 2>&1 >/dev/null || true)
check "docs/cdev-compat-migrate.1 renders without warnings${warn:+ ($warn)}" test -z "$warn"
