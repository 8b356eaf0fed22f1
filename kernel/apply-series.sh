#!/bin/bash
# Extract the installed linux-source-6.1 into the cache and apply kernel/patches/ to it; any fuzz,
# offset or reject is an error. Prints the linux-source version, then the patched tree's path.
#
#   kernel/apply-series.sh           tree at $CDEV_COMPAT_CACHE/kernel/tree/<version>-<series sha>/
#   kernel/apply-series.sh DEST      fresh tree at DEST (must not exist)
#
# The default tree is shared by build-kernel.sh and check-port.sh and treated as read-only source
# (they build with O=); it is reused while the source version and the series are unchanged.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ver=$(src_version)
printf '%s %s\n' "$SRC_PKG" "$ver"
if [ $# -ge 1 ]; then
	dest=$1
	extract_source "$dest"
	apply_series_clean "$dest"
	printf '%s\n' "$dest"
	exit 0
fi

dest=$KCACHE/tree/$ver-$(series_sha)
if [ -f "$dest/.cdev-series-applied" ]; then
	log "reusing $dest"
	printf '%s\n' "$dest"
	exit 0
fi
mkdir -p "$KCACHE/tree"
rm -rf "$dest" "$dest.tmp"
extract_source "$dest.tmp"
apply_series_clean "$dest.tmp"
touch "$dest.tmp/.cdev-series-applied"
mv "$dest.tmp" "$dest"
printf '%s\n' "$dest"
