#!/bin/bash
# shellcheck disable=SC2016 # check commands in single quotes are eval'd, and expand there
# t-kbuild.sh - the Kbuild fragment on the module trees vendors really have (issue 12):
# - every make block of docs/vendors.md and README.md, pasted as it is (only the fragment's
#   path points into this checkout), builds an unmodified legacy driver tree with W=1: real
#   msr.c at the top, real cpuid.c in a subdirectory module (obj-m += sub/), and vlegacy.c
#   (LINUX_VERSION_CODE picks the class_create() spelling; `return unregister_chrdev()` in a
#   void function) against the two-arg, the one-arg and a backport-patched 6.1 (6.4's
#   class_create()), with no diagnostic the native two-arg build does not have; natively
#   the one-arg and backport trees fail, so the test can fail;
# - the documented line with a comment after the value, as the docs once printed it, works;
# - the helpers' block and C lines build a two-file driver on the helpers, defined once;
# - the shim (two files in redirect mode) has one redirect list;
# - a cross build (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-, on the command line and in
#   the environment) probes arm64 with the cross compiler and builds an aarch64 module;
# - the probes use the caller's job count.
# - redirect mode set or unset in one file only is a build error naming the file;
# T_KBUILD=docs,trailing,shim,split,cross,jobs (default: all) runs only those parts (the mutants use
# it to run the part that must notice them).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs make:make gcc:gcc file:file nm:binutils python3:python3
work=$TEST_WORK/kbuild
rm -rf "$work"
mkdir -p "$work"
drivers=$HOST_TESTS/drivers
src=$(source_files arch/x86/kernel/msr.c arch/x86/kernel/cpuid.c)
declare -A kdir=([twoarg]=$(headers_twoarg) [onearg]=$(headers_onearg)
	[backport]=$("$HOST_TESTS/make-backport-headers.sh"))
arm64=$("$HOST_TESTS/make-arm64-tree.sh")
# The probes' results: a cache of this test's own, so they run here.
export CDEV_COMPAT_CACHE=$work/cache

parts=,${T_KBUILD:-docs,trailing,shim,split,cross,jobs},
part() { [[ $parts == *",$1,"* ]]; }

# The make blocks of the docs, and the C block that goes with the helpers' one.
blocks=$work/blocks
mkdir -p "$blocks"
for doc in "$CDEV_TOP/docs/vendors.md" "$CDEV_TOP/README.md"; do
	awk -v dir="$blocks" -v base="$(basename "$doc" .md)" '
		/^```make[[:space:]]*$/ { n++; file = sprintf("%s/%s-%d.mk", dir, base, n); next }
		/^```/ { file = ""; next }
		file { print > file }' "$doc"
done
awk '/^```c[[:space:]]*$/ { on = 1; next } /^```/ { on = 0 } on' "$CDEV_TOP/docs/vendors.md" >"$work/helpers-block.c"
mapfile -t mks < <(find "$blocks" -name '*.mk' | sort)
check "the docs show Kbuild blocks (${#mks[@]})" test "${#mks[@]}" -ge 3
check "the helpers' C block defines the helpers" grep -qx '#define CDEV_COMPAT_DEFINE_HELPERS' "$work/helpers-block.c"

# paste BLOCK - the block as a vendor pastes it, the fragment's path in this checkout.
paste_block() {
	sed "s#/usr/share/cdev-compat/cdev-compat.mk#$CDEV_TOP/compat/cdev-compat.mk#" "$1"
}

# legacy_tree DIR [BLOCK] - msr.c and vlegacy.c at the top, cpuid.c in sub/; BLOCK appended to
# the top Kbuild (none: a native build).
legacy_tree() {
	local dir=$1
	mkdir -p "$dir/sub"
	cp "$src/arch/x86/kernel/msr.c" "$drivers/vlegacy/vlegacy.c" "$dir/"
	cp "$src/arch/x86/kernel/cpuid.c" "$dir/sub/"
	printf 'obj-m := msr.o vlegacy.o\nobj-m += sub/\n' >"$dir/Kbuild"
	[ $# -lt 2 ] || paste_block "$2" >>"$dir/Kbuild"
	echo 'obj-m := cpuid.o' >"$dir/sub/Kbuild"
}

built_all() {
	[ -f "$1/msr.ko" ] && [ -f "$1/vlegacy.ko" ] && [ -f "$1/sub/cpuid.ko" ]
}

# Native builds: the two-arg one is the diagnostic baseline; the others must fail.
if part docs; then
for t in twoarg onearg backport; do
	legacy_tree "$work/native-$t"
	status=0
	kbuild "${kdir[$t]}" "$work/native-$t" "$work/native-$t/build.log" || status=$?
	if [ "$t" = twoarg ]; then
		check "native build of msr, vlegacy, sub/cpuid on the two-arg headers (status $status; log $work/native-$t/build.log)" \
			eval '[ "$status" -eq 0 ] && built_all "$work/native-$t"'
	else
		check "native build on the $t headers fails, as without cdev-compat (status $status; log $work/native-$t/build.log)" \
			test "$status" -ne 0
	fi
done
fi
if part docs; then warnings "$work/native-twoarg/build.log" | sort >"$work/baseline.diag"; fi

if part docs; then
for mk in "${mks[@]}"; do
	name=$(basename "$mk" .mk)
	grep -q 'cdev-compat.mk' "$mk" || continue
	if grep -q CDEV_COMPAT_REDIRECT "$mk"; then
		# Redirect mode: vlegacy.c as the block's driver.c, a module of one file.
		for t in twoarg onearg backport; do
			dir=$work/$name-redirect-$t
			mkdir -p "$dir"
			cp "$drivers/vlegacy/vlegacy.c" "$dir/driver.c"
			printf 'obj-m := driver.o\n' >"$dir/Kbuild"
			paste_block "$mk" >>"$dir/Kbuild"
			status=0
			kbuild "${kdir[$t]}" "$dir" "$dir/build.log" || status=$?
			n=$(warnings "$dir/build.log" | wc -l)
			served=$(nm "$dir/driver.ko" 2>/dev/null | grep -c ' T cdev_compat_redirect_register$' || true)
			check "$name pasted, $t headers: an unmodified driver builds in redirect mode with W=1, no diagnostic, its register_chrdev() served by cdev-compat (status $status, $n diagnostics, $served definitions; log $dir/build.log)" \
				eval '[ "$status" -eq 0 ] && [ "$n" -eq 0 ] && [ "$served" -eq 1 ]'
		done
	elif grep -q CDEV_COMPAT_FORCE_INCLUDE "$mk"; then
		for t in twoarg onearg backport; do
			dir=$work/$name-$t
			legacy_tree "$dir" "$mk"
			status=0
			kbuild "${kdir[$t]}" "$dir" "$dir/build.log" || status=$?
			warnings "$dir/build.log" | sort >"$dir/diag"
			new=$(comm -13 "$work/baseline.diag" "$dir/diag" | head -n 3 | tr '\n' ' ')
			check "$name pasted, $t headers: msr, vlegacy, sub/cpuid build with W=1 and no new diagnostic (status $status${new:+; new: $new}; log $dir/build.log)" \
				eval '[ "$status" -eq 0 ] && built_all "$dir" && [ -z "$new" ]'
			check "$name, $t: the subdirectory module was compiled with the wrappers and force-include" \
				eval "grep -q -- '-I$CDEV_TOP/compat/wrap' '$dir/sub/.cpuid.o.cmd' && grep -q -- '-DCDEV_COMPAT_FORCE_INCLUDE' '$dir/sub/.cpuid.o.cmd'"
		done
	else
		dir=$work/$name-helpers
		mkdir -p "$dir"
		cp "$drivers"/vhelpers/*.[ch] "$dir/"
		printf 'obj-m := vhelpers.o\nvhelpers-y := vhelpers_main.o vhelpers_dev.o\n' >"$dir/Kbuild"
		paste_block "$mk" >>"$dir/Kbuild"
		for t in twoarg onearg backport; do
			status=0
			kbuild "${kdir[$t]}" "$dir" "$dir/build-$t.log" || status=$?
			n=$(warnings "$dir/build-$t.log" | wc -l)
			defs=$(nm "$dir/vhelpers.ko" 2>/dev/null | grep -c ' T __cdev_compat_register$' || true)
			check "$name pasted, $t headers: the two-file driver on the helpers builds with W=1, no diagnostic, one __cdev_compat_register (status $status, $n diagnostics, $defs definitions; log $dir/build-$t.log)" \
				eval '[ "$status" -eq 0 ] && [ "$n" -eq 0 ] && [ "$defs" -eq 1 ]'
			make -C "${kdir[$t]}" M="$dir" clean >/dev/null 2>&1
		done
	fi
done
fi

# The documented line as the docs once printed it: a comment after the value.
if part trailing; then
dir=$work/trailing-comment
printf 'CDEV_COMPAT_FORCE_INCLUDE := y        # way 1 only\ninclude /usr/share/cdev-compat/cdev-compat.mk\n' >"$work/trailing-comment.mk"
legacy_tree "$dir" "$work/trailing-comment.mk"
status=0
kbuild "${kdir[onearg]}" "$dir" "$dir/build.log" || status=$?
check "CDEV_COMPAT_FORCE_INCLUDE := y with a trailing comment still force-includes on the one-arg headers (status $status; log $dir/build.log)" \
	eval '[ "$status" -eq 0 ] && built_all "$dir"'
fi

# The helpers are defined once in the shim, whose redirect device spans two files.
if part shim; then
dir=$work/shim
mkdir -p "$dir"
cp -a "$CDEV_TOP/compat" "$CDEV_TOP/shim" "$dir/"
status=0
kbuild "${kdir[onearg]}" "$dir/shim" "$dir/build.log" || status=$?
lists=$(nm "$dir/shim/cdev_shim.ko" 2>/dev/null | grep -c ' cdev_compat_redirects$' || true)
check "cdev_shim (redirect mode in two files) has one redirect list (status $status, $lists lists)" \
	eval '[ "$status" -eq 0 ] && [ "$lists" -eq 1 ]'
fi

# Redirect mode is module-wide: a file that sets or unsets it alone is a build error that
# names the file; the module-wide setting builds a driver that registers in one file and
# unregisters in another.
if part split; then
split_module() {
	local dir=$1 head=$2
	mkdir -p "$dir"
	cat >"$dir/reg.c" <<'C'
#include <linux/fs.h>
#include <linux/module.h>

void split_unregister(int major);
static const struct file_operations split_fops = { .owner = THIS_MODULE };
static int split_major;

static int __init split_init(void)
{
	split_major = register_chrdev(0, "split", &split_fops);
	return split_major < 0 ? split_major : 0;
}

static void __exit split_exit(void)
{
	split_unregister(split_major);
}

module_init(split_init);
module_exit(split_exit);
MODULE_LICENSE("GPL");
C
	{
		printf '%s\n' "$head"
		printf '#include <linux/fs.h>\n\nvoid split_unregister(int major);\n'
		printf 'void split_unregister(int major)\n{\n\treturn unregister_chrdev(major, "split");\n}\n'
	} >"$dir/unreg.c"
	printf 'obj-m := split.o\nsplit-y := reg.o unreg.o\nCDEV_COMPAT_FORCE_INCLUDE := y\n' >"$dir/Kbuild"
}
for how in define cflags undef whole; do
	dir=$work/split-$how
	case "$how" in
	define) split_module "$dir" '#define CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV' ;;
	undef)
		split_module "$dir" '#undef CDEV_COMPAT_REDIRECT_REGISTER_CHRDEV'
		echo 'CDEV_COMPAT_REDIRECT := y' >>"$dir/Kbuild"
		;;
	*)
		split_module "$dir" ''
		[ "$how" = cflags ] || echo 'CDEV_COMPAT_REDIRECT := y' >>"$dir/Kbuild"
		;;
	esac
	printf 'include %s\nCFLAGS_reg.o += -DCDEV_COMPAT_DEFINE_HELPERS\n' "$CDEV_TOP/compat/cdev-compat.mk" >>"$dir/Kbuild"
	[ "$how" != cflags ] || echo 'CFLAGS_unreg.o += -DCDEV_COMPAT_REDIRECT_REGISTER_CHRDEV' >>"$dir/Kbuild"
	status=0
	kbuild "${kdir[twoarg]}" "$dir" "$dir/build.log" || status=$?
	if [ "$how" = whole ]; then
		n=$(warnings "$dir/build.log" | wc -l)
		check "CDEV_COMPAT_REDIRECT := y: a module that registers in one file and unregisters in another builds with W=1, no diagnostic (status $status, $n diagnostics; log $dir/build.log)" \
			eval '[ "$status" -eq 0 ] && [ "$n" -eq 0 ] && [ -f "$dir/split.ko" ]'
	else
		case "$how" in
		define) what='defined in one source file only' ;;
		cflags) what='set by CFLAGS_unreg.o only' ;;
		undef) what='undefined in one source file of a CDEV_COMPAT_REDIRECT module' ;;
		esac
		check "redirect mode $what: the build stops with an error naming unreg.c (status $status; log $dir/build.log)" \
			eval '[ "$status" -ne 0 ] && grep -q "redirect mode set or unset in this file only" "$dir/build.log" && grep -q "unreg.c" "$dir/build.log" && ! grep -q "reg.c:.*redirect mode" "$dir/build.log"'
	fi
done
fi

# Cross builds: the probes see the target architecture and the cross compiler.
if part cross; then
for how in cmdline environment; do
	dir=$work/cross-$how
	mkdir -p "$dir"
	cp -a "$CDEV_TOP/compat" "$CDEV_TOP/shim" "$dir/"
	status=0
	if [ "$how" = cmdline ]; then
		CDEV_COMPAT_CACHE=$dir/cache make -C "$arm64" M="$dir/shim" ARCH=arm64 \
			CROSS_COMPILE=aarch64-linux-gnu- W=1 -j"$(nproc)" modules >"$dir/build.log" 2>&1 || status=$?
	else
		CDEV_COMPAT_CACHE=$dir/cache ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
			make -C "$arm64" M="$dir/shim" W=1 -j"$(nproc)" modules >"$dir/build.log" 2>&1 || status=$?
	fi
	tc=$(cat "$dir"/cache/probes/*/logs/toolchain.txt 2>/dev/null | tr '\n' ' ' || true)
	arch=$(file -b "$dir/shim/cdev_shim.ko" 2>/dev/null | cut -d, -f1-2 || true)
	check "cross build for arm64 (ARCH, CROSS_COMPILE from the $how): probes ran for arm64 with aarch64-linux-gnu-gcc ($tc) and cdev_shim.ko is $arch (status $status; log $dir/build.log)" \
		eval '[ "$status" -eq 0 ] && grep -q "SRCARCH=arm64 CC=aarch64-linux-gnu-gcc" <<<"$tc" && grep -q aarch64 <<<"$arch"'
done
fi

# The probes take the caller's job count (none: one job).
if part jobs; then
for jobs in 3 1; do
	dir=$work/jobs-$jobs
	mkdir -p "$dir"
	cp "$drivers/vlegacy/vlegacy.c" "$dir/"
	printf 'obj-m := vlegacy.o\nCDEV_COMPAT_FORCE_INCLUDE := y\ninclude %s\n' "$CDEV_TOP/compat/cdev-compat.mk" >"$dir/Kbuild"
	margs=()
	[ "$jobs" = 1 ] || margs=(-j"$jobs")
	status=0
	CDEV_COMPAT_CACHE=$dir/cache make -C "${kdir[twoarg]}" M="$dir" "${margs[@]}" modules >"$dir/build.log" 2>&1 || status=$?
	got=$(sed -n 's/^JOBS=//p' "$dir"/cache/probes/*/logs/jobs.txt 2>/dev/null || true)
	check "make ${margs[*]:-(no -j)}: the probes ran with $jobs job(s) (got '$got', status $status)" \
		eval '[ "$status" -eq 0 ] && [ "$got" = "$jobs" ]'
done
fi
