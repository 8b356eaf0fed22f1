#!/bin/bash
# gen-man.sh - the API reference as man pages: build/man/<function>.3 from the kernel-doc in
# compat/include/*.h (scripts/kernel-doc of Debian's linux-source-6.1). First checks that every
# function and struct has kernel-doc (kernel-doc -none; any warning fails).
#
#   docs/gen-man.sh        prints the pages written
set -euo pipefail
# shellcheck source=../tests/host/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tests/host/lib.sh"

need_pkgs perl:perl
src=$(source_files scripts/kernel-doc)
kdoc=$src/scripts/kernel-doc
out=$BUILD_DIR/man
headers=("$CDEV_TOP"/compat/include/*.h)

warn=$(perl "$kdoc" -none "${headers[@]}" 2>&1 || true)
if [ -n "$warn" ]; then
	printf '%s\n' "$warn" >&2
	die "kernel-doc warnings in compat/include (every helper needs complete kernel-doc)"
fi
# Every static inline function and every macro with arguments named cdev_compat_* has a block.
missing=()
for f in "${headers[@]}"; do
	while read -r name; do
		grep -qE "^ \\* $name\\(\\) - " "$f" || missing+=("$(basename "$f"): $name")
	done < <(grep -oE '^(static inline [a-z_ *]+ \**|#define )cdev_compat_[a-z0-9_]+\(' "$f" |
		sed -E 's/^(static inline [a-z_ *]+ \**|#define )//; s/\($//' | sort -u)
done
[ ${#missing[@]} -eq 0 ] || die "no kernel-doc for: ${missing[*]}"

rm -rf "$out"
mkdir -p "$out"
perl "$kdoc" -man "${headers[@]}" >"$out/all.man" 2>"$out/kernel-doc.log"
# kernel-doc -man writes one page per item, each starting with .TH "name"; split them.
# Function pages: .TH "name" 9 ...; struct pages: .TH "Kernel API" 9 "struct name" ...
# Written as section 3 (library API), the section the files are named for.
awk -v dir="$out" -F'"' '
	/^\.TH / {
		name = ($2 == "Kernel API") ? $4 : $2
		sub(/^struct /, "", name)
		gsub(/[^A-Za-z0-9_]/, "_", name)
		file = dir "/" name ".3"
		sub(/" 9 "/, "\" 3 \"")
	}
	file { print > file }' "$out/all.man"
rm -f "$out/all.man"
n=$(find "$out" -name '*.3' | wc -l)
[ "$n" -gt 0 ] || die "kernel-doc wrote no page; log: $out/kernel-doc.log"
find "$out" -name '*.3' | sort
