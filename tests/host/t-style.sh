#!/bin/bash
# t-style.sh - the shim builds with W=1 and no diagnostic against both headers trees; the
# kernel C code is checkpatch-clean (--no-tree -f); every shell script is shellcheck-clean.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs shellcheck:shellcheck perl:perl
work=$TEST_WORK/style
rm -rf "$work"
mkdir -p "$work"

check_shim_build "$(headers_twoarg)" "$work/twoarg" "the twoarg headers" 2
check_shim_build "$(headers_onearg)" "$work/onearg" "the onearg headers" 1

src=$(source_files scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)
# Kernel C of the project (vlegacy.c, a vendor-shaped driver with a LINUX_VERSION_CODE test, is
# left as vendors write it).
mapfile -t cfiles < <(cd "$CDEV_TOP" && git ls-files 'compat/*.c' 'compat/*.h' 'shim/*.c' 'shim/*.h' 'tests/vendor-example/*.c' 'tests/vendor-proof/*.c' 'tests/host/drivers/vhelpers/*.[ch]' 'tests/bench/*.c')
for f in "${cfiles[@]}"; do
	out=$(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types -f "$CDEV_TOP/$f" 2>&1 || true)
	# --terse prints nothing at all for a clean file.
	found=$(printf '%s\n' "$out" | grep -E ': (ERROR|WARNING|CHECK):' || true)
	check "checkpatch --no-tree -f $f: clean${found:+ ($(printf '%s' "$found" | head -n 3 | tr '\n' ' '))}" \
		test -z "$found"
done

mapfile -t scripts < <(cd "$CDEV_TOP" && git ls-files '*.sh' '.ci/run' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
for f in "${scripts[@]}"; do
	out=$(cd "$CDEV_TOP" && { shellcheck -x --source-path=SCRIPTDIR "$f" 2>&1 || true; })
	check "shellcheck $f: clean${out:+ ($(printf '%s' "$out" | grep -m1 -o 'SC[0-9]*.*'))}" test -z "$out"
done
