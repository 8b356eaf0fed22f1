#!/bin/bash
# t-seed-corpus.sh - every unregister_chrdev() call site of the seed patch, removed (two-arg)
# and added (one-arg) lines as written, compiled in a test module against the two-arg and
# the one-arg headers, with the compat header force-included (all must compile with W=1 and
# no warning) and without it (exactly the other side's sites must fail: the test can fail).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seed=$(find "$CDEV_TOP/../shared/seeds" -name '001-*.patch' 2>/dev/null | head -n1)
[ -n "$seed" ] || die "the seed patch ../shared/seeds/001-*.patch is missing"
work=$TEST_WORK/seed
rm -rf "$work"
mkdir -p "$work"
python3 "$HOST_TESTS/seed-callsites.py" "$seed" "$work" 2>"$work/summary.txt"
total=$(wc -l <"$work/sites.tsv")
removed=$(awk -F'\t' '$2 == "-"' "$work/sites.tsv" | wc -l)
added=$(awk -F'\t' '$2 == "+"' "$work/sites.tsv" | wc -l)
int_users=$(awk -F'\t' '$5 == 1' "$work/sites.tsv" | wc -l)
printf '# %s\n' "$(cat "$work/summary.txt")"

# failing_sites LOG - the site numbers with a compiler error, from their line ranges.
failing_sites() {
	grep -oE 'seed_sites\.c:[0-9]+:[0-9]+: error' "$1" | cut -d: -f2 | sort -un |
		awk -F'\t' 'NR == FNR { first[$1] = $3; last[$1] = $4; next }
			{ for (s in first) if ($1 >= first[s] && $1 <= last[s]) print s }' \
			"$work/sites.tsv" - | sort -un
}

# expected_failures SIDE - sites of the other SIDE, plus every site using the int result.
expected_failures() {
	awk -F'\t' -v side="$1" '$2 == side || $5 == 1 { print $1 }' "$work/sites.tsv" | sort -un
}

for tree in twoarg onearg; do
	if [ "$tree" = twoarg ]; then kdir=$(headers_twoarg); else kdir=$(headers_onearg); fi
	for mode in compat bare; do
		dir=$work/$tree-$mode
		mkdir -p "$dir"
		cp "$work/seed_sites.c" "$dir/"
		{
			echo 'obj-m := seed_sites.o'
			if [ "$mode" = compat ]; then
				echo 'CDEV_COMPAT_FORCE_INCLUDE := y'
				echo "include $CDEV_TOP/compat/cdev-compat.mk"
			fi
		} >"$dir/Kbuild"
		status=0
		kbuild "$kdir" "$dir" "$dir/build.log" || status=$?
		if [ "$mode" = compat ]; then
			nwarn=$(warnings "$dir/build.log" | wc -l)
			check "seed corpus, $tree headers, compat force-included: all $total sites ($removed two-arg, $added one-arg) compile with W=1 and no warning (status $status, $nwarn diagnostics; log $dir/build.log)" \
				test "$status" -eq 0 -a "$nwarn" -eq 0 -a -f "$dir/seed_sites.ko"
			continue
		fi
		failing_sites "$dir/build.log" >"$dir/failing.txt"
		if [ "$tree" = twoarg ]; then side=+; else side=-; fi
		expected_failures "$side" >"$dir/expected.txt"
		check "seed corpus, $tree headers, no compat: exactly the $(wc -l <"$dir/expected.txt") sites that are '$side' or use the int result ($int_users) fail ($(wc -l <"$dir/failing.txt") failed; log $dir/build.log)" \
			cmp -s "$dir/failing.txt" "$dir/expected.txt"
	done
done
