#!/bin/bash
# Build the one-arg guest kernel as Debian packages (what `make kernel` runs).
#
# kernel/build-kernel.sh [debug|nodebug]
#
# linux-source-6.1 + kernel/patches/, configured as x86_64 defconfig + kvm_guest.config +
# kernel/config/onearg.config, LOCALVERSION=-cdev-onearg, `make bindeb-pkg`: the "debug"
# flavour (the default; lockdep, kmemleak, fault injection), the matrix's onearg kernel.
# The "nodebug" flavour merges kernel/config/onearg-nodebug.config last (lockdep and kmemleak
# off), LOCALVERSION=-cdev-onearg-nodebug, published to $BUILD_DIR/kernel-nodebug/: the
# matrix's onearg-nodebug kernel, which a vendor run boots in seconds.
#
# Cached in $CDEV_COMPAT_CACHE/kernel/build/<key>/, key = source version + series sha + fragment
# sha + the build recipe (RECIPE below: bump it when the configure or make steps change). The cache holds the .debs, `vmlinuz` (the bzImage, for direct QEMU
# boot), `config` and `release`. The linux-image and linux-headers .debs are then hard-linked
# (or copied) to $BUILD_DIR/kernel/ and their paths printed, one a line, then vmlinuz.
# A warm run takes seconds; a cold run prints its build time.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

flavour=${1:-debug}
case "$flavour" in
debug) fragments=("$FRAGMENT") localversion=$LOCALVERSION_ONEARG dest=$BUILD_DIR/kernel ;;
nodebug)
	fragments=("$FRAGMENT" "$FRAGMENT_NODEBUG") localversion=$LOCALVERSION_ONEARG-nodebug
	dest=$BUILD_DIR/kernel-nodebug
	;;
*) die "unknown flavour '$flavour' (debug, nodebug)" ;;
esac
need_kbuild_pkgs
ver=$(src_version)
# The build recipe: what decides the packages' contents besides the source, series and fragment.
RECIPE="defconfig+kvm_guest.config+fragment bindeb-pkg LOCALVERSION=$localversion KDEB_PKGVERSION=$ver+onearg1 v2"
key=$(printf '%s\n' "$ver" "$(series_sha)" "$(sha_of "${fragments[@]}")" "$RECIPE" | sha256sum | cut -c1-16)
out=$KCACHE/build/$key
obj=$out/obj

publish() {
	local f
	mkdir -p "$dest"
	rm -f "$dest"/linux-image-*.deb "$dest"/linux-headers-*.deb "$dest"/vmlinuz "$dest"/config
	for f in "$out"/linux-image-*.deb "$out"/linux-headers-*.deb "$out"/vmlinuz "$out"/config; do
		[ -e "$f" ] || die "missing $f in the cache"
		ln -f "$f" "$dest/" 2>/dev/null || cp -f "$f" "$dest/"
	done
	log "kernel $(cat "$out/release") (key $key, cache $out)"
	for f in "$dest"/linux-image-*.deb "$dest"/linux-headers-*.deb "$dest"/vmlinuz; do
		printf '%s\n' "$f"
	done
}

if [ -f "$out/.done" ]; then
	log "cache hit"
	publish
	exit 0
fi

log "cold build: key $key ($SRC_PKG $ver), in $out"
start=$(date +%s)
log "extracting $SRC_TARBALL and applying kernel/patches/ (about 1 minute)"
tree=$("$KERNEL_DIR/apply-series.sh" | tail -n1)
mkdir -p "$obj"

# Configure: defconfig, then merge kvm_guest.config and our fragments (a later one wins), then
# check that every setting of them survived (a dependency can silently drop one).
make -s -C "$tree" O="$obj" ARCH=x86_64 defconfig
(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
	"$tree/kernel/configs/kvm_guest.config" "${fragments[@]}" >"$out/merge_config.log")
make -s -C "$tree" O="$obj" ARCH=x86_64 olddefconfig
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) want=$line ;;
	"# CONFIG_"*" is not set") want=$line ;;
	*) continue ;;
	esac
	if [[ $want == "# "* ]]; then
		sym=${want#\# }
		sym=${sym%% *}
		! grep -q "^$sym=" "$obj/.config" || { log "dropped: $want"; bad=1; }
	else
		grep -qxF "$want" "$obj/.config" || { log "dropped: $want (have: $(grep "^${want%%=*}=" "$obj/.config" || echo unset))"; bad=1; }
	fi
done < <(last_settings "${fragments[@]}")
[ "$bad" -eq 0 ] || die "config fragment not fully applied; see $obj/.config"

# Build the packages. Debs land in the parent of the object dir, i.e. $out. Progress: objects
# built so far against OBJECTS_EXPECTED, the count a build of this config made (committed).
built_objects() {
	find "$obj" -name '*.o' -newer "$obj/.config" 2>/dev/null | wc -l
}
expected=$(cat "$KERNEL_DIR/config/onearg.objects" 2>/dev/null || echo -)
with_progress "kernel build" "$out/build.log" built_objects "$expected" \
	make -C "$tree" O="$obj" ARCH=x86_64 -j"$(nproc)" \
	LOCALVERSION="$localversion" KDEB_PKGVERSION="$ver+onearg1" \
	KBUILD_BUILD_USER=cdev-compat KBUILD_BUILD_HOST=cdev-compat \
	DPKG_FLAGS=-d bindeb-pkg || {
	tail -30 "$out/build.log" >&2
	die "kernel build failed; log: $out/build.log"
}
built_objects >"$out/objects"
release=$(make -s -C "$tree" O="$obj" LOCALVERSION="$localversion" kernelrelease)
printf '%s\n' "$release" >"$out/release"
cp -f "$obj/arch/x86/boot/bzImage" "$out/vmlinuz"
cp -f "$obj/.config" "$out/config"
end=$(date +%s)
printf '%s\n' "$((end - start))" >"$out/build-seconds"
touch "$out/.done"
log "cold build took $(((end - start) / 60))m$(((end - start) % 60))s"
publish
