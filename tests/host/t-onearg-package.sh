#!/bin/bash
# t-onearg-package.sh - the headers .deb of each one-arg kernel of the suites' list (built by
# kernel/build-kernel.sh, as `make kernel` does; built here when missing): the probes find the
# one-argument unregister_chrdev() and three-argument __unregister_chrdev(), and the
# class_create() of the kernel's description; cdev_shim.ko builds on the packaged headers with
# W=1 and no diagnostic. The 6.1 one also agrees on every probe with the one-arg headers tree
# make check derives from Debian's 6.1 headers. Runs after the matrix (tests/run-all.sh).
# Part: make test (after make kernel: it checks the headers packages the kernel builds made)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=../matrix/lib/kernels.sh
. "$CDEV_TOP/tests/matrix/lib/kernels.sh"

work=$TEST_WORK/onearg-package
rm -rf "$work"
mkdir -p "$work"
# the kernel builds use the real cache; the probes and derived headers a fresh one
kcache=$CDEV_COMPAT_CACHE
export CDEV_COMPAT_CACHE=$work/cache
while read -r k base flavour <&3; do
	dir=$BUILD_DIR/kernel/$base-$flavour
	deb=$(find "$dir" -maxdepth 1 -name 'linux-headers-*.deb' 2>/dev/null | head -n1)
	if [ -z "$deb" ]; then
		CDEV_COMPAT_CACHE=$kcache "$CDEV_TOP/kernel/build-kernel.sh" --base "$base" "$flavour" >&2 ||
			die "kernel/build-kernel.sh --base $base $flavour failed"
		deb=$(find "$dir" -maxdepth 1 -name 'linux-headers-*.deb' | head -n1)
	fi
	[ -n "$deb" ] || die "no linux-headers .deb in $dir after kernel/build-kernel.sh --base $base $flavour"
	mkdir -p "$work/$k/root"
	dpkg-deb -x "$deb" "$work/$k/root"
	kdir=$(find "$work/$k/root/usr/src" -mindepth 1 -maxdepth 1 -type d -name 'linux-headers-*' | head -n1)
	[ -n "$kdir" ] || die "$deb holds no /usr/src/linux-headers-*"
	printf '# %s: packaged headers %s (%s)\n' "$k" "$(basename "$kdir")" "$(basename "$deb")"

	entry=$("$CDEV_TOP/compat/probes/run-probes.sh" "$kdir")
	passed=$(awk '$3 == "pass" { print $2 }' "$entry/probes.txt" | sort | paste -sd' ')
	class=class_create_owner
	[ "$(kernel_field "$k" class_create)" = owner,name ] || class=class_create_function
	for want in unregister_chrdev_1arg unregister_chrdev_ranged_3arg "$class"; do
		check "$k: the probes find $want on its packaged headers (passed: $passed)" \
			grep -qw -- "$want" <<<"$passed"
	done
	if [ "$base" = 6.1 ]; then
		der_entry=$("$CDEV_TOP/compat/probes/run-probes.sh" "$(headers_onearg)")
		diffs=$(diff <(sort "$entry/probes.txt") <(sort "$der_entry/probes.txt") | tr '\n' ' ' || true)
		check "$k: the headers .deb and the derived one-arg headers agree on all $(wc -l <"$entry/probes.txt") probes${diffs:+ (differ: $diffs)}" \
			test -z "$diffs"
	fi
	check_shim_build "$kdir" "$work/$k/build" "the packaged headers of $k" 1
done 3< <(kernel_builds suite)
