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
src=$(source_files "${drivers[@]}")
work=$TEST_WORK/legacy
rm -rf "$work"
mkdir -p "$work/orig" "$work/onearg"

for rel in "${drivers[@]}"; do
	cp "$src/$rel" "$work/orig/"
	cp "$src/$rel" "$work/onearg/"
	hunks=$(filterdiff -i "*/$rel" "$CDEV_TOP"/kernel/patches/[0-9]*.patch)
	if [ -z "$hunks" ]; then
		not_ok "the kernel port has hunks for $rel"
		continue
	fi
	printf '%s\n' "$hunks" | sed "s#^\(---\|+++\) [ab]/$rel#\1 $(basename "$rel")#" |
		patch -s -d "$work/onearg" -p0 -F0 --no-backup-if-mismatch ||
		not_ok "the kernel port's hunks for $rel apply"
done

objs=""
for rel in "${drivers[@]}"; do
	objs+=" $(basename "$rel" .c).o"
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

for version in orig onearg; do
	# The tree each version is written for, and the other one.
	if [ "$version" = orig ]; then native=twoarg other=onearg; else native=onearg other=twoarg; fi
	build "$version" "$native" bare
	native_dir=$dir
	build "$version" "$other" bare
	other_dir=$dir
	for tree in twoarg onearg; do
		build "$version" "$tree" compat
		for rel in "${drivers[@]}"; do
			name=$(basename "$rel" .c)
			extra=$(comm -13 <(warnings "$native_dir/build.log" | grep "^$name\.c:" | sed 's/:[0-9]*:[0-9]*:/:/') \
				<(warnings "$dir/build.log" | grep "^$name\.c:" | sed 's/:[0-9]*:[0-9]*:/:/') | wc -l)
			check "$name ($version) on $tree headers, compat force-included: builds, no diagnostic beyond its native build's ($extra extra; log $dir/build.log)" \
				test -f "$dir/$name.ko" -a "$extra" -eq 0
		done
	done
	for rel in "${drivers[@]}"; do
		name=$(basename "$rel" .c)
		check "$name ($version) builds without compat on its own $native headers" test -f "$native_dir/$name.ko"
		check "$name ($version) fails without compat on $other headers, at unregister_chrdev (log $other_dir/build.log)" \
			eval "[ ! -f '$other_dir/$name.o' ] && grep -q '$name\.c:.*unregister_chrdev' '$other_dir/build.log'"
	done
done

# The pitfall the wrapper exists for: force-including the header without compat/wrap/
# first pulls printk.h's default pr_fmt in before msr.c defines its own.
dir=$work/msr-naive-force-include
mkdir -p "$dir"
cp "$work/orig/msr.c" "$dir/"
probed=$("$CDEV_TOP/compat/probes/run-probes.sh" "$twoarg")
printf 'obj-m := msr.o\nccflags-y += -I%s -I%s -include cdev_compat.h\n' \
	"$probed" "$CDEV_TOP/compat/include" >"$dir/Kbuild"
kbuild "$twoarg" "$dir" "$dir/build.log" || true
check "msr.c with the header force-included naively (no wrapper) warns \"pr_fmt\" redefined, which the fragment's wrapper avoids" \
	grep -q '"pr_fmt" redefined' "$dir/build.log"
