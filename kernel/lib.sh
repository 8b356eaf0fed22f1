#!/bin/bash
# Helpers shared by the kernel/ scripts. Source it; do not run it.
# shellcheck shell=bash

# shellcheck disable=SC2034
KERNEL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# CDEV_TOP, BUILD_DIR, CDEV_COMPAT_CACHE, die, log, need_pkgs
# shellcheck source=../scripts/lib.sh
. "$KERNEL_DIR/../scripts/lib.sh"
# shellcheck disable=SC2034 # used by the scripts that source this file
KCACHE=$CDEV_COMPAT_CACHE/kernel
SRC_PKG=linux-source-6.1
SRC_TARBALL=/usr/src/$SRC_PKG.tar.xz
COCCI=$KERNEL_DIR/cocci/unregister_chrdev-drop-name.cocci
FRAGMENT=$KERNEL_DIR/config/onearg.config
FRAGMENT_NODEBUG=$KERNEL_DIR/config/onearg-nodebug.config
LOCALVERSION_ONEARG=-cdev-onearg

# The kernel build needs these; install whatever is missing.
need_kbuild_pkgs() {
	need_pkgs gcc:build-essential make:build-essential bc:bc bison:bison flex:flex \
		/usr/include/openssl/ssl.h:libssl-dev /usr/include/libelf.h:libelf-dev \
		pahole:dwarves rsync:rsync depmod:kmod cpio:cpio dpkg-buildpackage:dpkg-dev \
		fakeroot:fakeroot xz:xz-utils
}

# src_version - the Debian version of the installed linux-source-6.1 (installs it if missing).
src_version() {
	need_pkgs "$SRC_TARBALL:$SRC_PKG"
	dpkg-query -W -f='${Version}' "$SRC_PKG"
}

# sha_of FILE... - one sha256 over the given files' contents, in order.
sha_of() {
	cat "$@" | sha256sum | cut -c1-16
}

# last_settings FRAGMENT... - the config settings of the fragments (CONFIG_X=... and
# "# CONFIG_X is not set" lines), the last one of each symbol, in the order of their first.
last_settings() {
	awk '/^CONFIG_[A-Za-z0-9_]+=/ { s = $0; sub(/=.*/, "", s) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { s = $2 }
		s != "" { if (!(s in v)) o[++n] = s; v[s] = $0; s = "" }
		END { for (i = 1; i <= n; i++) print v[o[i]] }' "$@"
}

# series_files - the committed series, in order (cover letter excluded: it changes nothing).
series_files() {
	local f
	for f in "$KERNEL_DIR"/patches/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$f" ] || die "no patches in $KERNEL_DIR/patches"
		case "${f##*/}" in 0000-cover-letter.patch) continue ;; esac
		printf '%s\n' "$f"
	done
}

series_sha() {
	local -a files
	mapfile -t files < <(series_files)
	sha_of "${files[@]}"
}

# extract_source DEST - unpack the pristine linux-source-6.1 tarball into DEST (must not exist);
# the tree ends up in DEST itself.
extract_source() {
	local dest=$1 tmp
	[ ! -e "$dest" ] || die "$dest already exists"
	need_pkgs xz:xz-utils
	tmp=$(mktemp -d "$(dirname "$dest")/.extract.XXXXXX")
	tar -C "$tmp" -xf "$SRC_TARBALL"
	[ -f "$tmp/$SRC_PKG/Makefile" ] || die "unexpected layout in $SRC_TARBALL"
	mv "$tmp/$SRC_PKG" "$dest"
	rmdir "$tmp"
}

# apply_series_clean TREE - apply the committed series with patch -p1; any fuzz, offset or
# reject is an error (the series is made against exactly this source version).
apply_series_clean() {
	local tree=$1 p out
	need_pkgs patch:patch
	while read -r p; do
		if ! out=$(patch -d "$tree" -p1 --dry-run --fuzz=0 -N <"$p" 2>&1) ||
			grep -q -e '^Hunk' -e 'FAILED' -e 'reject' <<<"$out"; then
			printf '%s\n' "$out" >&2
			die "${p##*/} does not apply cleanly to $SRC_PKG $(src_version)"
		fi
		patch -d "$tree" -p1 --fuzz=0 -N --no-backup-if-mismatch -s <"$p" ||
			die "applying ${p##*/} failed"
		log "applied ${p##*/}"
	done < <(series_files)
}
