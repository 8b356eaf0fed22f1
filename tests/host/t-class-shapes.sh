#!/bin/bash
# shellcheck disable=SC2016 # check commands in single quotes are eval'd, and expand there
# t-class-shapes.sh - class_create() in every shape a kernel or a backport gives it, version
# unchanged: a two-argument macro over __class_create() (6.1), a one-argument macro over it
# (the backports project; make-backport-headers.sh macro), a one-argument function (6.4,
# RHEL 9; make-backport-headers.sh function), and the two-argument kernel with a backports
# include directory (its one-argument class.h macro) searched before or after compat/wrap/.
# On each: the probes give exactly one verdict (class_create_owner or class_create_function);
# the legacy trees (msr.c, vlegacy.c, sub/cpuid.c) build force-included with no diagnostic
# the native two-arg build lacks; vclass.c (#include <cdev_compat.h>, both spellings) and
# the shim build with no diagnostic at all. Natively, the one-argument shapes fail: the test
# can fail.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs make:make gcc:gcc python3:python3
work=$TEST_WORK/class-shapes
rm -rf "$work"
mkdir -p "$work"
drivers=$HOST_TESTS/drivers
src=$(source_files arch/x86/kernel/msr.c arch/x86/kernel/cpuid.c)
twoarg=$(headers_twoarg)
# T_CLASS_SHAPES=macro1,bp-before (default: all) runs only those shapes (the mutants use it).
IFS=, read -r -a shapes <<<"${T_CLASS_SHAPES:-macro2,macro1,function,bp-before,bp-after}"
declare -A kdir=([macro2]=$twoarg [macro1]=$("$HOST_TESTS/make-backport-headers.sh" macro)
	[function]=$("$HOST_TESTS/make-backport-headers.sh" function)
	[bp-before]=$twoarg [bp-after]=$twoarg)
declare -A verdict=([macro2]=class_create_owner [macro1]=class_create_owner
	[function]=class_create_function [bp-before]=class_create_owner [bp-after]=class_create_owner)
# The probe results go to the shared probe cache, as a developer's builds keep them (keyed by
# the probes, run-probes.sh and every header they read): a run after one with the same inputs
# probes nothing. t-probes, t-probes-in-pass and t-probe-cache probe cold.
frag=$CDEV_TOP/compat/cdev-compat.mk

# The backports project's wrapper, as its backport-include/linux/device/class.h has it.
bp=$work/backport-include
mkdir -p "$bp/linux/device"
cat >"$bp/linux/device/class.h" <<'H'
#include_next <linux/device/class.h>
#undef class_create
#define class_create(name) ({ static struct lock_class_key __key; __class_create(THIS_MODULE, name, &__key); })
H

# kbuild_tail SHAPE - the Kbuild lines after the fragment's include line: the backports
# include directory first or last on the path.
kbuild_tail() {
	case "$1" in
	bp-before) printf 'NOSTDINC_FLAGS := -I%s $(NOSTDINC_FLAGS)\n' "$bp" ;;
	bp-after) printf 'NOSTDINC_FLAGS += -I%s\n' "$bp" ;;
	esac
}

# legacy_tree DIR SHAPE [force] - msr.c and vlegacy.c at the top, cpuid.c in sub/; with
# "force", the documented force-include lines (and the shape's backports lines).
legacy_tree() {
	local dir=$1 shape=$2
	mkdir -p "$dir/sub"
	cp "$src/arch/x86/kernel/msr.c" "$drivers/vlegacy/vlegacy.c" "$dir/"
	cp "$src/arch/x86/kernel/cpuid.c" "$dir/sub/"
	printf 'obj-m := msr.o vlegacy.o\nobj-m += sub/\n' >"$dir/Kbuild"
	if [ "${3:-}" = force ]; then
		printf 'CDEV_COMPAT_FORCE_INCLUDE := y\ninclude %s\n' "$frag" >>"$dir/Kbuild"
		kbuild_tail "$shape" >>"$dir/Kbuild"
	else
		case "$shape" in bp-*) printf 'NOSTDINC_FLAGS += -I%s\n' "$bp" >>"$dir/Kbuild" ;; esac
	fi
	echo 'obj-m := cpuid.o' >"$dir/sub/Kbuild"
}
built_all() {
	[ -f "$1/msr.ko" ] && [ -f "$1/vlegacy.ko" ] && [ -f "$1/sub/cpuid.ko" ]
}

legacy_tree "$work/native-macro2" macro2
status=0
kbuild "$twoarg" "$work/native-macro2" "$work/native-macro2/build.log" || status=$?
check "native build of msr, vlegacy, sub/cpuid on the two-arg macro headers (status $status; log $work/native-macro2/build.log)" \
	eval '[ "$status" -eq 0 ] && built_all "$work/native-macro2"'

for shape in "${shapes[@]}"; do
	k=${kdir[$shape]}
	# The probes: exactly one verdict, the function underneath.
	status=0
	entry=$("$CDEV_TOP/compat/probes/run-probes.sh" "$k" 2>"$work/$shape.probes.err") || status=$?
	got=$(awk '$1 == "class_create" && $3 == "pass" { print $2 }' "$entry/probes.txt" 2>/dev/null | tr '\n' ' ' || true)
	[ "$status" -eq 0 ] || got+="(run-probes failed: $(grep -m1 -o 'error: .*' "$work/$shape.probes.err" || true)) "
	check "$shape: the class_create probes pass exactly ${verdict[$shape]} (got: ${got:-none}; status $status)" \
		test "$status" -eq 0 -a "$got" = "${verdict[$shape]} "

	if [ "$shape" != macro2 ] && [ "$shape" != bp-after ]; then
		legacy_tree "$work/native-$shape" "$shape"
		status=0
		kbuild "$k" "$work/native-$shape" "$work/native-$shape/build.log" || status=$?
		check "$shape: natively (no cdev-compat) the legacy tree fails to build, as on such a kernel (status $status)" \
			test "$status" -ne 0
	fi

	dir=$work/force-$shape
	legacy_tree "$dir" "$shape" force
	status=0
	kbuild "$k" "$dir" "$dir/build.log" || status=$?
	new=$(new_diagnostics "$work/native-macro2/build.log" "$dir/build.log" | head -n 3 | tr '\n' ' ')
	check "$shape, force-included: msr, vlegacy, sub/cpuid build with W=1 and no new diagnostic (status $status${new:+; new: $new}; log $dir/build.log)" \
		eval '[ "$status" -eq 0 ] && built_all "$dir" && [ -z "$new" ]'

	dir=$work/include-$shape
	mkdir -p "$dir"
	cp "$drivers/vclass/vclass.c" "$dir/"
	{ printf 'obj-m := vclass.o\ninclude %s\n' "$frag"; kbuild_tail "$shape"; } >"$dir/Kbuild"
	status=0
	kbuild "$k" "$dir" "$dir/build.log" || status=$?
	n=$(warnings "$dir/build.log" | wc -l)
	check "$shape, #include <cdev_compat.h>: vclass (both spellings) builds with W=1 and no diagnostic (status $status, $n diagnostics; log $dir/build.log)" \
		eval '[ "$status" -eq 0 ] && [ "$n" -eq 0 ] && [ -f "$dir/vclass.ko" ]'

	dir=$work/shim-$shape
	mkdir -p "$dir"
	cp -a "$CDEV_TOP/compat" "$CDEV_TOP/shim" "$dir/"
	kbuild_tail "$shape" >>"$dir/shim/Kbuild"
	status=0
	kbuild "$k" "$dir/shim" "$dir/build.log" || status=$?
	n=$(warnings "$dir/build.log" | wc -l)
	check "$shape: cdev_shim builds with W=1 and no diagnostic (status $status, $n diagnostics; log $dir/build.log)" \
		eval '[ "$status" -eq 0 ] && [ "$n" -eq 0 ] && [ -f "$dir/shim/cdev_shim.ko" ]'
done
