#!/bin/bash
# make-onearg-headers.sh - make a one-arg kernel headers tree in seconds, without building a
# kernel: a copy of the installed Debian 6.1 headers (linux-headers-amd64) with the
# include/linux/fs.h part of the kernel port (kernel/bases/6.1/patches/*.patch) applied. Prints the
# tree's build dir (the KDIR to build modules against).
#
# Cached under $CDEV_COMPAT_CACHE/onearg-headers/, keyed by the headers package version, the
# fs.h hunks and this script.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs filterdiff:patchutils patch:patch
shopt -s nullglob
patches=("$CDEV_TOP"/kernel/bases/6.1/patches/[0-9]*.patch)
[ ${#patches[@]} -gt 0 ] || die "no kernel/bases/6.1/patches/*.patch: the kernel port is missing"
hunks=$(filterdiff -i '*include/linux/fs.h' "${patches[@]}")
[ -n "$hunks" ] || die "kernel/bases/6.1/patches/*.patch do not touch include/linux/fs.h"

derived_headers onearg-headers "${BASH_SOURCE[0]}" "$hunks"
[ ! -f "$DH_TOP/.complete" ] || { printf '%s\n' "$DH_KDIR"; exit 0; }
kdir=$DH_KDIR common=$DH_COMMON

printf '%s\n' "$hunks" | patch -s -d "$common" -p1 -F0 --no-backup-if-mismatch ||
	die "the fs.h hunks of kernel/bases/6.1/patches do not apply to $common/include/linux/fs.h"
touch "$DH_TOP/.complete"
log "one-arg headers: $kdir (from $(basename "$kdir") $DH_VERSION + kernel/bases/6.1/patches fs.h hunks)"
printf '%s\n' "$kdir"
