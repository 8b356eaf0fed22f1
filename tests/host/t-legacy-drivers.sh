#!/bin/bash
# t-legacy-drivers.sh - real legacy char drivers from Debian's linux-source-6.1, built out of
# tree and unmodified with the compat header force-included, against the two-arg and the
# one-arg headers; likewise their one-arg versions (the kernel port's hunks applied).
# Without the header each unmodified driver must fail on the one-arg tree (and each one-arg
# version on the two-arg tree): the test can fail. The compat build must add no diagnostic
# to what the driver's native build prints.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs filterdiff:patchutils patch:patch
drivers=(arch/x86/kernel/cpuid.c arch/x86/kernel/msr.c lib/xz/xz_dec_test.c drivers/net/ppp/ppp_generic.c)
# One pass over the tarball for all files, slhc.c (ppp_generic's dependency, for the staging) too.
src=$(source_files "${drivers[@]}" drivers/net/slip/slhc.c)
work=$TEST_WORK/legacy
rm -rf "$work"
mkdir -p "$work/orig" "$work/onearg"

for rel in "${drivers[@]}"; do
	cp "$src/$rel" "$work/orig/"
	cp "$src/$rel" "$work/onearg/"
	hunks=$(filterdiff -i "*/$rel" "$CDEV_TOP"/kernel/bases/6.1/patches/[0-9]*.patch)
	if [ -z "$hunks" ]; then
		not_ok "the kernel port has hunks for $rel"
		continue
	fi
	printf '%s\n' "$hunks" | sed "s#^\(---\|+++\) [ab]/$rel#\1 $(basename "$rel")#" |
		patch -s -d "$work/onearg" -p0 -F0 --no-backup-if-mismatch ||
		not_ok "the kernel port's hunks for $rel apply"
done

objs="" names_re=""
for rel in "${drivers[@]}"; do
	objs+=" $(basename "$rel" .c).o"
	names_re+="${names_re:+|}$(basename "$rel" .c)"
done

twoarg=$(headers_twoarg)
onearg=$(headers_onearg)

# build VERSION TREE MODE - one out-of-tree build of the four drivers; sets $dir.
build() {
	local version=$1 tree=$2 mode=$3 kdir
	if [ "$tree" = twoarg ]; then kdir=$twoarg; else kdir=$onearg; fi
	dir=$work/$version-$tree-$mode
	mkdir -p "$dir"
	cp "$work/$version"/*.c "$dir/"
	{
		echo "obj-m :=$objs"
		if [ "$mode" = compat ]; then
			echo 'CDEV_COMPAT_FORCE_INCLUDE := y'
			echo "include $CDEV_TOP/compat/cdev-compat.mk"
		fi
	} >"$dir/Kbuild"
	kbuild "$kdir" "$dir" "$dir/build.log" -k || true
}

# T_LEGACY_VERSIONS=orig (or onearg) builds only that version and stops after it (what a
# mutant's run needs).
for version in ${T_LEGACY_VERSIONS:-orig onearg}; do
	# The tree each version is written for, and the other one.
	if [ "$version" = orig ]; then native=twoarg other=onearg; else native=onearg other=twoarg; fi
	build "$version" "$native" bare
	native_dir=$dir
	build "$version" "$other" bare
	other_dir=$dir
	for tree in twoarg onearg; do
		build "$version" "$tree" compat
		# Every diagnostic the native build does not have, from any file: the driver's own and
		# the compat headers' alike.
		new_diagnostics "$native_dir/build.log" "$dir/build.log" >"$dir/new-diagnostics.txt"
		for rel in "${drivers[@]}"; do
			name=$(basename "$rel" .c)
			extra=$(grep -c "^$name\.c:" "$dir/new-diagnostics.txt" || true)
			check "$name ($version) on $tree headers, compat force-included: builds, no diagnostic in $name.c beyond its native build's ($extra extra; log $dir/build.log)" \
				test -f "$dir/$name.ko" -a "$extra" -eq 0
		done
		others=$(grep -cvE "^($names_re)\.c:" "$dir/new-diagnostics.txt" || true)
		check "drivers ($version) on $tree headers, compat force-included: no diagnostic from another file (the compat or kernel headers) beyond the native build's ($others extra$( [ "$others" -eq 0 ] || printf ': %s' "$(grep -vE "^($names_re)\.c:" "$dir/new-diagnostics.txt" | head -n 2 | tr '\n' ' ')"); log $dir/build.log)" \
			test "$others" -eq 0
	done
	for rel in "${drivers[@]}"; do
		name=$(basename "$rel" .c)
		check "$name ($version) builds without compat on its own $native headers" test -f "$native_dir/$name.ko"
		check "$name ($version) fails without compat on $other headers, at unregister_chrdev (log $other_dir/build.log)" \
			eval "[ ! -f '$other_dir/$name.o' ] && grep -q '$name\.c:.*unregister_chrdev' '$other_dir/build.log'"
	done
done

[ -z "${T_LEGACY_VERSIONS:-}" ] || exit 0

# The pitfall the wrapper exists for: force-including the header without compat/wrap/
# first pulls printk.h's default pr_fmt in before msr.c defines its own.
dir=$work/msr-naive-force-include
mkdir -p "$dir"
cp "$work/orig/msr.c" "$dir/"
probed=$("$CDEV_TOP/compat/probes/run-probes.sh" "$twoarg")
printf 'obj-m := msr.o\nccflags-y += -I%s -I%s -I%s -include cdev_compat.h\n' \
	"$probed" "$CDEV_TOP/compat/include" "$CDEV_TOP/compat/changes" >"$dir/Kbuild"
kbuild "$twoarg" "$dir" "$dir/build.log" || true
check "msr.c with the header force-included naively (no wrapper) warns \"pr_fmt\" redefined, which the fragment's wrapper avoids" \
	grep -q '"pr_fmt" redefined' "$dir/build.log"

# The matrix's staging of these drivers for the images (tests/legacy/): variants, manifest and
# conversion; then build-drivers.sh, as the image runs it, against the one-arg headers (only
# the include line of the packaged fragment is pointed at compat/), including a broken driver.
onearg_tree=$work/onearg-tree
for rel in "${drivers[@]}"; do
	mkdir -p "$onearg_tree/$(dirname "$rel")"
	cp "$work/onearg/$(basename "$rel")" "$onearg_tree/$rel"
done
mkdir -p "$onearg_tree/drivers/net/slip"
cp "$src/drivers/net/slip/slhc.c" "$onearg_tree/drivers/net/slip/"
staged=$work/staged
if "$CDEV_TOP/tests/legacy/stage-drivers.sh" "$staged" unmodified=/usr/src/linux-source-6.1.tar.xz \
	other-arity="$onearg_tree" >"$work/stage.log" 2>&1; then
	ok "stage-drivers.sh stages linux-source-6.1.tar.xz and a one-arg tree"
else
	not_ok "stage-drivers.sh stages linux-source-6.1.tar.xz and a one-arg tree (log $work/stage.log)"
fi
check "staged manifest: 3 variants x 5 modules, in order" \
	test "$(awk '{ print $1 }' "$staged/manifest" 2>/dev/null | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" = \
	"unmodified:5 converted:5 other-arity:5 "
for rel in "${drivers[@]}"; do
	name=$(basename "$rel" .c)
	check "staged unmodified/$name.c is linux-source-6.1's" cmp -s "$src/$rel" "$staged/unmodified/$name.c"
	check "staged other-arity/$name.c is the one-arg port's" cmp -s "$work/onearg/$name.c" "$staged/other-arity/$name.c"
	# (comments may still name register_chrdev())
	left=$(grep -E '(^|[^_])(__)?(un)?register_chrdev\(' "$staged/converted/$name.c" |
		grep -cvE '^\s*(/\*|\*)' || true)
	check "staged converted/$name.c uses the cdev helpers, no (un)register_chrdev call left ($left)" \
		eval "grep -q 'cdev_compat_unregister(' '$staged/converted/$name.c' && [ '$left' -eq 0 ]"
done
check "staged slhc.c (ppp_generic's dependency) is not converted" \
	cmp -s "$staged/unmodified/slhc.c" "$staged/converted/slhc.c"
check "staged Kbuilds: force-include for unmodified and other-arity, not for converted" \
	eval "grep -qx 'CDEV_COMPAT_FORCE_INCLUDE := y' '$staged/unmodified/Kbuild' &&
		grep -qx 'CDEV_COMPAT_FORCE_INCLUDE := y' '$staged/other-arity/Kbuild' &&
		! grep -q FORCE_INCLUDE '$staged/converted/Kbuild'"
for bad in "" "unmodified=$work/no-such-tree" "sideways=$onearg_tree" "other-arity=$onearg_tree"; do
	# shellcheck disable=SC2086 # an empty $bad is no argument
	out=$("$CDEV_TOP/tests/legacy/stage-drivers.sh" "$work/staged-bad" $bad 2>&1) && rc=0 || rc=$?
	desc="stage-drivers.sh ${bad:-(no source)}: exit 1 with a reason ('$(tail -n1 <<<"$out")')"
	if [ "$rc" -eq 1 ] && grep -qE 'usage|no such|unknown variant|no unmodified' <<<"$out"; then
		ok "$desc"
	else
		not_ok "$desc"
	fi
done

# build-drivers.sh as the image runs it, against the one-arg headers.
built=$work/staged-host
rm -rf "$built.src"
cp -r "$staged" "$built.src"
sed -i "s#^include /usr/share/cdev-compat/#include $CDEV_TOP/compat/#" "$built.src"/*/Kbuild
sed -i 's/^\(static int __init msr_init(void)\)$/#error injected\n\1/' "$built.src/converted/msr.c"
"$built.src/build-drivers.sh" "$built.src" "$onearg" "$built" >"$work/build-drivers.log" 2>&1 && rc=0 || rc=$?
check "build-drivers.sh on the one-arg headers: exit 0 although a driver is broken (log $work/build-drivers.log)" \
	test "$rc" -eq 0
for v in unmodified other-arity; do
	check "build-drivers.sh: $v: all 5 modules built on the one-arg headers" \
		eval "[ \"\$(grep -c ' ok$' '$built/$v/status')\" -eq 5 ] && [ \"\$(ls '$built/$v'/*.ko | wc -l)\" -eq 5 ]"
done
check "build-drivers.sh: converted: the broken msr.c is 'msr failed' with its error in build.log, the other 4 built alone" \
	eval "grep -qx 'msr failed' '$built/converted/status' && [ \"\$(grep -c ' ok$' '$built/converted/status')\" -eq 4 ] &&
		[ ! -e '$built/converted/msr.ko' ] && grep -q '#error injected' '$built/converted/build.log'"
