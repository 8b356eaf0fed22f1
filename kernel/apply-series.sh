#!/bin/bash
# Extract a base's linux-source into the cache and apply its series (kernel/bases/BASE/patches/)
# to it; any fuzz, offset or reject is an error. Prints the linux-source package and version,
# then the patched tree's path.
#
#   kernel/apply-series.sh [--base BASE]        tree at $CDEV_COMPAT_CACHE/kernel/tree/<pkg>-<version>-<series sha>/
#   kernel/apply-series.sh [--base BASE] DEST   fresh tree at DEST (must not exist)
#
# The default tree is shared by build-kernel.sh and check-port.sh and treated as read-only source
# (they build with O=); it is reused while the source version and the series are unchanged.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

base_args "$@"
set -- "${BASE_ARGS_LEFT[@]}"
ver=$(src_version)
printf '%s %s\n' "$SRC_PKG" "$ver"
if [ $# -ge 1 ]; then
	dest=$1
	extract_source "$dest"
	apply_series_clean "$dest"
	printf '%s\n' "$dest"
	exit 0
fi

dest=$KCACHE/tree/$SRC_PKG-$ver-$(series_sha)
if [ -f "$dest/.cdev-series-applied" ]; then
	log "reusing $dest"
	printf '%s\n' "$dest"
	exit 0
fi
log "extracting $SRC_PKG $ver and applying kernel/bases/$BASE/patches/ (about 1 minute)"
mkdir -p "$KCACHE/tree"
rm -rf "$dest" "$dest.tmp"
extract_source "$dest.tmp"
apply_series_clean "$dest.tmp"
touch "$dest.tmp/.cdev-series-applied"
mv "$dest.tmp" "$dest"
printf '%s\n' "$dest"
