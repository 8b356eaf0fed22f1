#!/bin/bash
# t-onearg-package.sh - the headers .deb of the built one-arg kernel (make kernel) against the
# one-arg headers tree make check derives from the Debian headers: both must agree on every
# probe, and cdev_shim.ko must build on the packaged headers with W=1 and no diagnostic.
# Runs after the matrix (tests/run-all.sh), which builds the kernel; builds it when missing.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

deb=$(find "$BUILD_DIR/kernel" -maxdepth 1 -name 'linux-headers-*.deb' 2>/dev/null | head -n1)
if [ -z "$deb" ]; then
	"$CDEV_TOP/kernel/build-kernel.sh" >&2 || die "make kernel failed"
	deb=$(find "$BUILD_DIR/kernel" -maxdepth 1 -name 'linux-headers-*.deb' | head -n1)
fi
[ -n "$deb" ] || die "no linux-headers .deb in $BUILD_DIR/kernel after make kernel"
work=$TEST_WORK/onearg-package
rm -rf "$work"
mkdir -p "$work/root"
dpkg-deb -x "$deb" "$work/root"
kdir=$(find "$work/root/usr/src" -mindepth 1 -maxdepth 1 -type d -name 'linux-headers-*' | head -n1)
[ -n "$kdir" ] || die "$deb holds no /usr/src/linux-headers-*"
printf '# packaged headers: %s (%s)\n' "$(basename "$kdir")" "$(basename "$deb")"

export CDEV_COMPAT_CACHE=$work/cache
derived=$(headers_onearg)
pkg_entry=$("$CDEV_TOP/compat/probes/run-probes.sh" "$kdir")
der_entry=$("$CDEV_TOP/compat/probes/run-probes.sh" "$derived")
diffs=$(diff <(sort "$pkg_entry/probes.txt") <(sort "$der_entry/probes.txt") | tr '\n' ' ' || true)
check "the one-arg kernel's headers .deb and the derived one-arg headers agree on all $(wc -l <"$pkg_entry/probes.txt") probes${diffs:+ (differ: $diffs)}" \
	test -z "$diffs"

check_shim_build "$kdir" "$work/build" "the packaged one-arg headers" 1
