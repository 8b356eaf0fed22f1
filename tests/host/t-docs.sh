#!/bin/bash
# t-docs.sh - the docs: every ```sh block of docs/*.md runs from the repository root and exits
# 0, unless its first line is "# skip: <reason>" (listed); docs/gen-man.sh checks the kernel-doc
# of every helper and writes the API man pages; the tool's man page renders without warnings.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs man:man-db spatch:coccinelle
work=$TEST_WORK/docs
rm -rf "$work"
mkdir -p "$work"

# Split the ```sh blocks into files: <doc>-<n>.sh.
for doc in "$CDEV_TOP"/docs/*.md; do
	awk -v dir="$work" -v base="$(basename "$doc" .md)" '
		/^```sh[[:space:]]*$/ { n++; file = sprintf("%s/%s-%d.sh", dir, base, n); next }
		/^```/ { file = ""; next }
		file { print > file }' "$doc"
done
blocks=("$work"/*.sh)
check "docs/*.md show runnable sh blocks (${#blocks[@]})" test "${#blocks[@]}" -gt 3
for b in "${blocks[@]}"; do
	name=$(basename "$b" .sh)
	first=$(head -n1 "$b")
	case "$first" in
	"# skip: "*)
		printf '# %s skipped: %s\n' "$name" "${first#\# skip: }"
		continue ;;
	esac
	status=0
	(cd "$CDEV_TOP" && bash -euo pipefail "$b") >"$work/$name.log" 2>&1 || status=$?
	check "docs block $name runs (status $status; $(head -n1 "$b" | cut -c1-60); log $work/$name.log)" test "$status" -eq 0
done
skips=$(grep -l '^# skip: ' "${blocks[@]}" | wc -l)
check "at most 3 doc blocks are skipped ($skips)" test "$skips" -le 3

status=0
"$CDEV_TOP/docs/gen-man.sh" >"$work/gen-man.log" 2>&1 || status=$?
check "docs/gen-man.sh: kernel-doc complete, pages written (status $status; log $work/gen-man.log)" test "$status" -eq 0
for fn in cdev_compat_region cdev_compat_register cdev_compat_register_chrdev cdev_compat_unregister cdev_compat_create_nodes cdev_compat_from_inode; do
	check "API man page $fn.3 renders and has NAME" \
		eval "man -l '$BUILD_DIR/man/$fn.3' 2>/dev/null | grep -q '$fn'"
done
warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$CDEV_TOP/docs/cdev-compat-migrate.1" 2>&1 >/dev/null || true)
check "docs/cdev-compat-migrate.1 renders without warnings${warn:+ ($warn)}" test -z "$warn"
