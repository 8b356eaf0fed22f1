#!/bin/bash
# t-seed-corpus.sh - every unregister_chrdev()/__unregister_chrdev() call site of Linux 6.1, in
# both spellings (the removed and added lines of the one-arg series, kernel/bases/6.1/patches/), plus the
# legacy forms that use the int result (legacy-int-sites.diff), compiled as written in a test
# module (seed-callsites.py) against the two-arg and the one-arg headers:
#   - compat force-included: every site that does not use the result compiles with W=1 and no
#     diagnostic, and of all sites exactly the int-result ones fail (the result is void);
#   - compat force-included with -DCDEV_COMPAT_UNREGISTER_RETURNS_INT: all sites compile with
#     W=1 and no diagnostic;
#   - without compat: exactly the other side's sites and the int-result ones fail (the test
#     can fail).
# Reads nothing outside the project.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs python3:python3
plan 9
work=$TEST_WORK/seed
rm -rf "$work"
mkdir -p "$work"
shopt -s nullglob
inputs=("$CDEV_TOP"/kernel/bases/6.1/patches/[0-9]*.patch "$HOST_TESTS/legacy-int-sites.diff")
python3 "$HOST_TESTS/seed-callsites.py" "$work" "${inputs[@]}" 2>"$work/summary.txt" ||
	die "seed-callsites.py failed: $(cat "$work/summary.txt")"
total=$(wc -l <"$work/sites.tsv")
removed=$(awk -F'\t' '$2 == "-"' "$work/sites.tsv" | wc -l)
added=$(awk -F'\t' '$2 == "+"' "$work/sites.tsv" | wc -l)
int_users=$(awk -F'\t' '$5 == 1' "$work/sites.tsv" | wc -l)
printf '# %s\n' "$(cat "$work/summary.txt")"
# The series converts 98 callers and fs.h's own inline: at least 99 sites a side.
check "the corpus has every 6.1 site in both spellings and int-result sites ($removed two-arg, $added one-arg, $int_users use the result; from ${inputs[*]##*/})" \
	test "$removed" -eq "$added" -a "$removed" -ge 99 -a "$int_users" -gt 0

# failing_sites LOG - the site numbers with a compiler error: the function gcc names before the
# error ("In function 'seed_site_N'"; an error inside the compat macros is reported at the
# header's line), or else the site whose lines hold the error.
failing_sites() {
	awk -F'\t' 'NR == FNR { first[$1] = $3; last[$1] = $4; next }
		/: In function .*seed_site_[0-9]+/ { cur = $0; sub(/.*seed_site_/, "", cur); sub(/[^0-9].*/, "", cur); next }
		/: At top level:/ { cur = ""; next }
		/: error: / {
			if (cur != "") { print cur; next }
			if (match($0, /seed_sites\.c:[0-9]+:/)) {
				l = substr($0, RSTART + 13, RLENGTH - 14)
				for (s in first) if (l + 0 >= first[s] && l + 0 <= last[s]) print s
			}
		}' "$work/sites.tsv" "$1" | sort -un
}

# sites_where AWK-CONDITION - the site numbers matching a condition on sites.tsv's columns.
sites_where() {
	awk -F'\t' "$1 { print \$1 }" "$work/sites.tsv" | sort -un
}

# build TREE KDIR NAME COMPAT FLAGS... - build the corpus module; sets dir and status.
build() {
	local tree=$1 kdir=$2 name=$3 compat=$4
	shift 4
	dir=$work/$tree-$name
	mkdir -p "$dir"
	cp "$work/seed_sites.c" "$dir/"
	{
		echo 'obj-m := seed_sites.o'
		[ $# -eq 0 ] || echo "ccflags-y += $*"
		if [ "$compat" = y ]; then
			echo 'CDEV_COMPAT_FORCE_INCLUDE := y'
			echo "include $CDEV_TOP/compat/cdev-compat.mk"
		fi
	} >"$dir/Kbuild"
	status=0
	kbuild "$kdir" "$dir" "$dir/build.log" -k || status=$?
}

# only_in A B - up to 5 lines of A that B does not have, on one line.
only_in() {
	LC_ALL=C comm -23 <(LC_ALL=C sort "$1") <(LC_ALL=C sort "$2") | head -n 5 | tr '\n' ' '
}

# expect_failing WHAT EXPECTED-FILE - the sites that failed in $dir are exactly those expected.
expect_failing() {
	failing_sites "$dir/build.log" >"$dir/failing.txt"
	cp "$2" "$dir/expected.txt"
	check "$1: exactly the $(wc -l <"$dir/expected.txt") expected sites fail ($(wc -l <"$dir/failing.txt") failed, status $status; unexpected: $(only_in "$dir/failing.txt" "$dir/expected.txt")missing: $(only_in "$dir/expected.txt" "$dir/failing.txt")log $dir/build.log)" \
		eval "[ $status -ne 0 ] && cmp -s '$dir/expected.txt' '$dir/failing.txt'"
}

# expect_clean WHAT - the module in $dir built with W=1 and no diagnostic.
expect_clean() {
	local nwarn
	nwarn=$(warnings "$dir/build.log" | wc -l)
	check "$1: all compile with W=1 and no diagnostic (status $status, $nwarn diagnostics; log $dir/build.log)" \
		test "$status" -eq 0 -a "$nwarn" -eq 0 -a -f "$dir/seed_sites.ko"
}

# shellcheck disable=SC2016 # an awk condition
sites_where '$5 == 1' >"$work/int-sites.txt"
for tree in twoarg onearg; do
	if [ "$tree" = twoarg ]; then kdir=$(headers_twoarg) other=+; else kdir=$(headers_onearg) other=-; fi
	build "$tree" "$kdir" compat y
	expect_clean "$tree headers, compat force-included, the $((total - int_users)) sites that do not use the result"
	build "$tree" "$kdir" compat-int y -DSEED_INT_RESULT
	expect_failing "$tree headers, compat force-included, all $total sites: the $int_users int-result ones fail (void by default)" \
		"$work/int-sites.txt"
	build "$tree" "$kdir" compat-returns-int y -DSEED_INT_RESULT -DCDEV_COMPAT_UNREGISTER_RETURNS_INT
	expect_clean "$tree headers, compat force-included with -DCDEV_COMPAT_UNREGISTER_RETURNS_INT, all $total sites"
	build "$tree" "$kdir" bare n -DSEED_INT_RESULT
	sites_where "\$2 == \"$other\" || \$5 == 1" >"$work/expected-$tree.txt"
	expect_failing "$tree headers, no compat, all $total sites: the '$other' ones and the int-result ones fail" \
		"$work/expected-$tree.txt"
done
