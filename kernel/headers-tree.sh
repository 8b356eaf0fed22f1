#!/bin/bash
# A one-arg base's kernel headers for out-of-tree builds, in a minute instead of a kernel
# build: the base's patched tree (apply-series.sh) configured as the guest kernels are
# (allnoconfig + kernel/config/guest.config + nodebug.config) and `make modules_prepare` run
# in an object directory. Prints that directory: a KDIR to compile modules and cdev-compat's
# probes against (it has no Module.symvers, so modpost of a module built there warns of every
# kernel symbol: compile with it, link against a built kernel's headers).
#
#   kernel/headers-tree.sh [--base BASE]
#
# Cached in $CDEV_COMPAT_CACHE/kernel/headers/<key>/, keyed by the base, its source version,
# the series, the fragments and this script. The host tests of the API changes use it for the
# newest base (tests/host/t-changes.sh).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

base_args "$@"
need_kbuild_pkgs
ver=$(src_version)
fragments=("$KERNEL_DIR/config/guest.config" "$KERNEL_DIR/config/nodebug.config")
key=$({ printf '%s\n' "$BASE" "$ver" "$(series_sha)"; cat "${fragments[@]}" "${BASH_SOURCE[0]}"; } |
	sha256sum | cut -c1-16)
out=$KCACHE/headers/$BASE-$key
if [ -f "$out/.done" ]; then
	printf '%s\n' "$out/obj"
	exit 0
fi
mkdir -p "$KCACHE/headers"
exec {lock}>"$out.lock"
flock "$lock"
if [ ! -f "$out/.done" ]; then
	tree=$("$KERNEL_DIR/apply-series.sh" --base "$BASE" | tail -n1)
	rm -rf "$out"
	mkdir -p "$out/obj"
	last_settings "${fragments[@]}" >"$out/allconfig"
	make -s -C "$tree" O="$out/obj" ARCH=x86_64 KCONFIG_ALLCONFIG="$out/allconfig" allnoconfig \
		>"$out/prepare.log" 2>&1 || die "allnoconfig of base $BASE failed; log: $out/prepare.log"
	make -C "$tree" O="$out/obj" ARCH=x86_64 -j"$(nproc)" modules_prepare >>"$out/prepare.log" 2>&1 ||
		die "modules_prepare of base $BASE failed; log: $out/prepare.log"
	touch "$out/.done"
	log "headers of base $BASE ($SRC_PKG $ver): $out/obj"
fi
printf '%s\n' "$out/obj"
