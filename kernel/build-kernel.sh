#!/bin/bash
# Build a one-arg guest kernel as Debian packages (what `make kernel` runs).
#
# kernel/build-kernel.sh [--base BASE] [debug|nodebug]
#
# The base's linux-source + its series (kernel/bases/BASE/), configured as x86_64 allnoconfig +
# kernel/config/guest.config (only what the matrix guests use) + the flavour's fragment, then
# `make bindeb-pkg` (a base's own kernel/bases/BASE/FLAVOUR.config, if any, is merged last):
#   debug    (the default) kernel/config/debug.config: lockdep, kmemleak, debug objects and
#            late kobject releases; LOCALVERSION=-cdev-onearg; the suites' one-arg kernels
#   nodebug  kernel/config/nodebug.config: none of them; LOCALVERSION=-cdev-onearg-nodebug; what
#            a vendor run boots in seconds
# BASE defaults to kernel/lib.sh's DEFAULT_BASE (6.1).
#
# Cached in $CDEV_COMPAT_CACHE/kernel/build/<key>/, key = base, source version, series sha,
# fragments' sha and the build recipe (RECIPE below: bump it when the configure or make steps
# change). The cache holds the .debs, `vmlinuz` (the bzImage, for direct QEMU boot), `config`,
# `release`, `build.log`, `build-seconds` (the cold build's seconds, cores and load average)
# and `objects`. The linux-image and linux-headers .debs
# are then hard-linked (or copied) to $BUILD_DIR/kernel/<base>-<flavour>/ and their paths
# printed, one a line, then vmlinuz. A warm run takes a fraction of a second.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

base_args "$@"
set -- "${BASE_ARGS_LEFT[@]}"
flavour=${1:-debug}
case "$flavour" in
debug) localversion=-cdev-onearg ;;
nodebug) localversion=-cdev-onearg-nodebug ;;
*) die "unknown flavour '$flavour' (debug, nodebug)" ;;
esac
fragments=("$KERNEL_DIR/config/guest.config" "$KERNEL_DIR/config/$flavour.config")
# A base may adjust a flavour for what its own drivers do (kernel/bases/BASE/FLAVOUR.config).
[ ! -f "$KERNEL_DIR/bases/$BASE/$flavour.config" ] || fragments+=("$KERNEL_DIR/bases/$BASE/$flavour.config")
dest=$BUILD_DIR/kernel/$BASE-$flavour
need_kbuild_pkgs
ver=$(src_version)
# The build recipe: what decides the packages' contents besides the source, series and fragment.
RECIPE="allnoconfig+fragments bindeb-pkg LOCALVERSION=$localversion KDEB_PKGVERSION=$ver+onearg1 v3"
key=$(printf '%s\n' "$BASE" "$ver" "$(series_sha)" "$(sha_of "${fragments[@]}")" "$RECIPE" | sha256sum | cut -c1-16)
out=$KCACHE/build/$key
obj=$out/obj

publish() {
	local f
	mkdir -p "$dest"
	rm -f "$dest"/linux-image-*.deb "$dest"/linux-headers-*.deb "$dest"/vmlinuz "$dest"/config \
		"$dest"/build-seconds
	for f in "$out"/linux-image-*.deb "$out"/linux-headers-*.deb "$out"/vmlinuz "$out"/config \
		"$out"/build-seconds; do
		[ -e "$f" ] || die "missing $f in the cache"
		ln -f "$f" "$dest/" 2>/dev/null || cp -f "$f" "$dest/"
	done
	log "kernel $(cat "$out/release") (base $BASE, $flavour, key $key, cache $out)"
	for f in "$dest"/linux-image-*.deb "$dest"/linux-headers-*.deb "$dest"/vmlinuz; do
		printf '%s\n' "$f"
	done
}

if [ -f "$out/.done" ]; then
	log "cache hit"
	publish
	exit 0
fi

log "cold build: key $key ($SRC_PKG $ver, $flavour), in $out"
start=$(date +%s)
tree=$("$KERNEL_DIR/apply-series.sh" --base "$BASE" | tail -n1)
rm -rf "$obj"
mkdir -p "$obj"

# Configure: allnoconfig with our fragments as its preset (a later fragment wins), then check that
# every setting of them survived (a dependency can silently drop one).
last_settings "${fragments[@]}" >"$out/allconfig"
make -s -C "$tree" O="$obj" ARCH=x86_64 KCONFIG_ALLCONFIG="$out/allconfig" allnoconfig >"$out/config.log" 2>&1 ||
	die "allnoconfig failed; log: $out/config.log"
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
[ "$bad" -eq 0 ] || die "config fragments not fully applied on base $BASE; see $obj/.config"

# Build the packages. Debs land in the parent of the object dir, i.e. $out. Progress: objects
# built so far against the count the last build of this base and flavour made (kept in the
# cache beside the builds).
built_objects() {
	find "$obj" -name '*.o' -newer "$obj/.config" 2>/dev/null | wc -l
}
expected=$(cat "$KCACHE/build/objects.$BASE-$flavour" 2>/dev/null || echo -)
with_progress "kernel build" "$out/build.log" built_objects "$expected" \
	make -C "$tree" O="$obj" ARCH=x86_64 -j"$(nproc)" \
	LOCALVERSION="$localversion" KDEB_PKGVERSION="$ver+onearg1" \
	KBUILD_BUILD_USER=cdev-compat KBUILD_BUILD_HOST=cdev-compat \
	DPKG_FLAGS=-d bindeb-pkg || {
	tail -30 "$out/build.log" >&2
	die "kernel build failed; log: $out/build.log"
}
built_objects >"$out/objects"
cp -f "$out/objects" "$KCACHE/build/objects.$BASE-$flavour"
release=$(make -s -C "$tree" O="$obj" LOCALVERSION="$localversion" kernelrelease)
printf '%s\n' "$release" >"$out/release"
cp -f "$obj/arch/x86/boot/bzImage" "$out/vmlinuz"
cp -f "$obj/.config" "$out/config"
end=$(date +%s)
# seconds, cores, load average at the end (what `make bench` prints as the cold build time)
printf '%s %s %s\n' "$((end - start))" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" >"$out/build-seconds"
touch "$out/.done"
log "cold build took $(((end - start) / 60))m$(((end - start) % 60))s"
publish
