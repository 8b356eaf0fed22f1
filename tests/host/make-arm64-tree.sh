#!/bin/bash
# make-arm64-tree.sh - an arm64 kernel build dir prepared for external modules, for the cross
# build test: Debian's linux-source-6.1, ARCH=arm64 defconfig, make modules_prepare with
# Debian's aarch64-linux-gnu- cross compiler (installed when missing). Prints the build dir.
# Compile tests only: nothing built against it is ever loaded anywhere.
#
# Cached under $CDEV_COMPAT_CACHE/arm64-tree/, keyed by the linux-source-6.1 version and this
# script; a cold run takes a few minutes (progress once a minute).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tarball=/usr/src/linux-source-6.1.tar.xz
need_pkgs "$tarball:linux-source-6.1" aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu \
	make:make bc:bc bison:bison flex:flex xz:xz-utils /usr/include/openssl/ssl.h:libssl-dev
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$({ printf '%s\n' "$version"; cat "${BASH_SOURCE[0]}"; } | sha256sum | cut -c1-16)
top=$CDEV_COMPAT_CACHE/arm64-tree/$version-$key
if [ -f "$top/.complete" ]; then
	printf '%s\n' "$top/obj"
	exit 0
fi
# One maker at a time (suites run in parallel); a waiter then finds the tree complete.
mkdir -p "${top%/*}"
exec {lock}>"$top.lock"
flock "$lock"
if [ -f "$top/.complete" ]; then
	printf '%s\n' "$top/obj"
	exit 0
fi

rm -rf "$top"
mkdir -p "$top/obj"
log "extracting $tarball into $top/src"
tar -C "$top" -xJf "$tarball"
mv "$top/linux-source-6.1" "$top/src"
args=(-C "$top/src" O="$top/obj" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
make -s "${args[@]}" defconfig >"$top/defconfig.log" 2>&1 ||
	die "arm64 defconfig failed; see $top/defconfig.log"
with_progress "arm64 modules_prepare" "$top/prepare.log" - - \
	make "${args[@]}" -j"$(nproc)" modules_prepare ||
	die "arm64 modules_prepare failed; see $top/prepare.log"
touch "$top/.complete"
printf '%s\n' "$top/obj"
