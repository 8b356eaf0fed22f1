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
# What checkpatch flags on purpose, one checkpatch type per file, and why. An exemption that
# no longer silences anything fails too (it would hide the next real finding).
declare -A exempt=(
	# strlcpy() where 6.8 removed it: a function of that name (a driver's own
	# "#define strlcpy strscpy" must still build), its probe, the old spelling in the corpus.
	[compat/changes/strlcpy/compat.h]=STRLCPY
	[compat/changes/strlcpy/probe-present.c]=STRLCPY
	[compat/changes/strlcpy/corpus/old.c]=STRLCPY
	# Types whose const differs by kernel: typedefs, since "const TYPE" through a macro
	# would be a duplicate-const warning where the macro already says const.
	[compat/changes/class_const/compat.h]=NEW_TYPEDEFS
)
for f in "${cfiles[@]}"; do
	ignore=()
	if [ -n "${exempt[$f]:-}" ]; then
		ignore=(--ignore "${exempt[$f]}")
		out=$(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types -f "$CDEV_TOP/$f" 2>&1 || true)
		check "checkpatch exemption $f ${exempt[$f]}: still needed" grep -q ":${exempt[$f]}:" <<<"$out"
	fi
	out=$(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types "${ignore[@]}" -f "$CDEV_TOP/$f" 2>&1 || true)
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
