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

for tree in twoarg onearg; do
	if [ "$tree" = twoarg ]; then kdir=$(headers_twoarg); else kdir=$(headers_onearg); fi
	# A copy, so the source tree stays clean; shim/Kbuild finds ../compat.
	mkdir -p "$work/$tree"
	cp -a "$CDEV_TOP/compat" "$CDEV_TOP/shim" "$work/$tree/"
	status=0
	kbuild "$kdir" "$work/$tree/shim" "$work/$tree/build.log" || status=$?
	n=$(warnings "$work/$tree/build.log" | wc -l)
	check "cdev_shim.ko builds with W=1 and no diagnostic on the $tree headers (status $status, $n diagnostics; log $work/$tree/build.log)" \
		test "$status" -eq 0 -a "$n" -eq 0 -a -f "$work/$tree/shim/cdev_shim.ko"
	args=$(/sbin/modinfo -F cdev_compat_unregister_args "$work/$tree/shim/cdev_shim.ko" 2>/dev/null || true)
	want=2
	[ "$tree" = onearg ] && want=1
	check "cdev_shim.ko built on the $tree headers records unregister_chrdev arity $want (modinfo: '$args')" \
		test "$args" = "$want"
done

src=$(source_files scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)
mapfile -t cfiles < <(cd "$CDEV_TOP" && git ls-files 'compat/*.c' 'compat/*.h' 'shim/*.c' 'shim/*.h')
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
