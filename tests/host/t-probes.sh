#!/bin/bash
# t-probes.sh - the feature probes decide each headers tree's variants; results are cached
# and redone when a probe changes; a kernel that fits no variant stops the build with a
# message naming the probe and its kept log.
# T_PROBES_PARTS="variants broken" (default: both) runs only those parts (what a mutant's run
# needs): the variants and the cache on the Debian headers, or the headers that fit no variant.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

work=$TEST_WORK/probes
rm -rf "$work"
mkdir -p "$work"
probes=$CDEV_TOP/compat/probes
twoarg=$(headers_twoarg)
onearg=$(headers_onearg)
# A probe cache of this test's own, so every run starts cold.
export CDEV_COMPAT_CACHE=$work/cache

# expect_variants KDIR NAME VARIANT... - exactly these of compat/probes/*.c pass (the probes
# of the API changes, compat/changes/, have their own suite: t-changes).
expect_variants() {
	local kdir=$1 name=$2 entry got want own
	shift 2
	if ! entry=$("$probes/run-probes.sh" "$kdir" 2>"$work/$name.err"); then
		not_ok "probes on the $name headers (see $work/$name.err)"
		return
	fi
	own=$(cd "$probes" && printf '%s\n' *.c | sed 's/\.c$//')
	got=$(awk '$3 == "pass" { print $2 }' "$entry/probes.txt" | grep -xF -f <(printf '%s\n' "$own") |
		sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	check "probes on the $name headers pass exactly: $want(got: $got)" test "$got" = "$want"
}

if in_parts T_PROBES_PARTS variants "variants broken"; then
	expect_variants "$twoarg" twoarg unregister_chrdev_2arg unregister_chrdev_ranged_4arg \
		class_create_owner class_devnode_nonconst cdev_device_add
	expect_variants "$onearg" onearg unregister_chrdev_1arg unregister_chrdev_ranged_3arg \
		class_create_owner class_devnode_nonconst cdev_device_add
	entry=$("$probes/run-probes.sh" "$onearg")
	check "the one-arg headers' generated header defines CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS 1" \
		grep -qx '#define CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS 1' "$entry/cdev_compat_probes.h"

	# Cache: a second run reuses the entry; a changed probe gives a new one.
	before=$(stat -c %Y.%s "$entry/cdev_compat_probes.h")
	again=$("$probes/run-probes.sh" "$onearg")
	check "a second probe run for the same kernel reuses the cached result" \
		test "$again" = "$entry" -a "$(stat -c %Y.%s "$again/cdev_compat_probes.h")" = "$before"
	cp -a "$CDEV_TOP/compat" "$work/compat-copy"
	printf '/* changed */\n' >>"$work/compat-copy/probes/cdev_device_add.c"
	changed=$("$work/compat-copy/probes/run-probes.sh" "$onearg")
	check "a changed probe is redone (new cache entry)" test "$changed" != "$entry" -a -f "$changed/cdev_compat_probes.h"
fi

in_parts T_PROBES_PARTS broken "variants broken" || exit 0
# A kernel with neither unregister_chrdev() arity: the probes fail, naming probe and log.
broken=$(clone_headers "$twoarg" "$work/broken")
fs=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$broken/Makefile")/include/linux/fs.h
sed -i 's/^static inline void unregister_chrdev(unsigned int major, const char \*name)$/static inline void unregister_chrdev(unsigned int major, const char *name, int extra)/' "$fs"
grep -q 'const char \*name, int extra)' "$fs" || die "could not break $fs for the test"
status=0
"$probes/run-probes.sh" "$broken" 2>"$work/broken.err" >/dev/null || status=$?
log1=$(sed -n 's/.*probe .*unregister_chrdev_1arg.c failed; log: \(.*\)$/\1/p' "$work/broken.err")
check "headers with neither unregister_chrdev() arity: probes fail naming the set" \
	grep -q 'no variant of "unregister_chrdev" compiles' "$work/broken.err"
check "... and each failed probe's kept log, which holds the compiler's error (status $status)" \
	eval "[ $status -ne 0 ] && [ -n '$log1' ] && grep -q 'error:' '$log1'"
status=0
cp -a "$CDEV_TOP/shim" "$work/shim"
rm -rf "$work/compat" && cp -a "$CDEV_TOP/compat" "$work/compat"
make -C "$work/shim" KDIR="$broken" >"$work/broken-shim.log" 2>&1 || status=$?
check "building the shim against those headers stops with the probe message (status $status)" \
	eval "[ $status -ne 0 ] && grep -q 'cdev-compat: feature probes failed' '$work/broken-shim.log' && grep -q 'unregister_chrdev_2arg.c failed; log: ' '$work/broken-shim.log'"

# The other half of "exactly one": headers on which both unregister_chrdev() arities compile
# (a variadic macro over the kernel's function): the probes are ambiguous and must stop.
both=$(clone_headers "$twoarg" "$work/both")
fs=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$both/Makefile")/include/linux/fs.h
printf '\n/* cdev-compat t-probes: either arity compiles */\n#define unregister_chrdev(major, ...) __unregister_chrdev(major, 0, 256, "both")\n' >>"$fs"
status=0
"$probes/run-probes.sh" "$both" 2>"$work/both.err" >/dev/null || status=$?
check "headers where both unregister_chrdev() arities compile: probes fail, naming the set as ambiguous (status $status: $(grep -m1 'more than one' "$work/both.err" || head -c 120 "$work/both.err"))" \
	eval "[ $status -ne 0 ] && grep -q 'more than one variant of \"unregister_chrdev\" compiles (unregister_chrdev_1arg unregister_chrdev_2arg)' '$work/both.err'"
status=0
make -C "$work/shim" KDIR="$both" >"$work/both-shim.log" 2>&1 || status=$?
check "building the shim against those headers stops with the probe message (status $status; log $work/both-shim.log)" \
	eval "[ $status -ne 0 ] && grep -q 'cdev-compat: feature probes failed' '$work/both-shim.log' && grep -q 'more than one variant of \"unregister_chrdev\"' '$work/both-shim.log'"

status=0
"$probes/run-probes.sh" "$work/no-such-kernel" 2>"$work/missing.err" || status=$?
check "a missing kernel build dir is a clear error (status $status: $(head -c 120 "$work/missing.err"))" \
	eval "[ $status -ne 0 ] && grep -q 'does not exist (are the headers of the target kernel installed' '$work/missing.err'"
