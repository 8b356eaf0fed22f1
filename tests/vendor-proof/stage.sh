#!/bin/bash
# stage.sh OUT - the legacy drivers of legacy/ as standalone external modules in OUT/<name>/:
# the driver's file from Debian's linux-source-6.1 (installed when missing), its Kbuild and
# test from legacy/<name>/, then legacy/<name>/*.patch applied. One source for every target
# kernel, as a vendor has. Prints OUT/<name>, one a line.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 OUT"
out=$1
tarball=/usr/src/linux-source-6.1.tar.xz
need_pkgs "$tarball:linux-source-6.1" xz:xz-utils patch:patch
here=$CDEV_TOP/tests/vendor-proof/legacy
declare -A path_of=([cpuid]=arch/x86/kernel/cpuid.c [xz_dec_test]=lib/xz/xz_dec_test.c)
mkdir -p "$out"
members=()
for m in "${!path_of[@]}"; do members+=("linux-source-6.1/${path_of[$m]}"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xJf "$tarball" "${members[@]}" || die "cannot extract ${members[*]} from $tarball"
for m in $(printf '%s\n' "${!path_of[@]}" | sort); do
	d=$out/$m
	rm -rf "$d"
	mkdir -p "$d"
	cp "$tmp/linux-source-6.1/${path_of[$m]}" "$d/"
	cp "$here/$m/Kbuild" "$here/$m/test.sh" "$d/"
	for p in "$here/$m"/*.patch; do
		[ -e "$p" ] || continue
		patch -s -d "$d" -p1 <"$p" || die "$p does not apply to ${path_of[$m]} of $tarball"
	done
	printf '%s\n' "$d"
done
