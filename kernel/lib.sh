#!/bin/bash
# Helpers shared by the kernel/ scripts. Source it; do not run it.
# shellcheck shell=bash
#
# A base is a Debian linux-source the one-arg series is made for: kernel/bases/BASE/ holds
# base.conf (source_package, source_suite), chrdev-core.diff (the hand-written definitions) and
# patches/ (the series kernel/make-series.sh generated from them and the semantic patch).
# base_use BASE selects one; every function below then works on it.

KERNEL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# CDEV_TOP, BUILD_DIR, CDEV_COMPAT_CACHE, die, log, need_pkgs
# shellcheck source=../scripts/lib.sh
. "$KERNEL_DIR/../scripts/lib.sh"
# shellcheck disable=SC2034 # used by the scripts that source this file
KCACHE=$CDEV_COMPAT_CACHE/kernel
# shellcheck disable=SC2034
COCCI=$KERNEL_DIR/cocci/unregister_chrdev-drop-name.cocci
# The base a script works on when it is given none: the first one-arg kernel's.
DEFAULT_BASE=6.1

# kernel_bases - the bases, one a line.
kernel_bases() {
	local d
	for d in "$KERNEL_DIR"/bases/*/base.conf; do
		d=${d%/base.conf}
		printf '%s\n' "${d##*/}"
	done
}

# base_use BASE - select BASE: sets BASE, BASE_DIR, SRC_PKG, SRC_SUITE.
base_use() {
	local key val
	BASE=$1 BASE_DIR=$KERNEL_DIR/bases/$1 SRC_PKG='' SRC_SUITE=
	[ -f "$BASE_DIR/base.conf" ] ||
		die "no kernel base '$1' (have: $(kernel_bases | paste -sd' '))"
	while IFS='=' read -r key val; do
		case "$key" in
		source_package) SRC_PKG=$val ;;
		source_suite) SRC_SUITE=$val ;;
		'' | '#'*) ;;
		*) die "$BASE_DIR/base.conf: unknown key '$key'" ;;
		esac
	done <"$BASE_DIR/base.conf"
	if [ -z "$SRC_PKG" ] || [ -z "$SRC_SUITE" ]; then
		die "$BASE_DIR/base.conf: source_package and source_suite are required"
	fi
}

# base_args ARGS... - select the base named by a leading "--base BASE" (else DEFAULT_BASE);
# sets BASE_ARGS_LEFT to the remaining arguments.
base_args() {
	if [ "${1:-}" = --base ]; then
		[ $# -ge 2 ] || die "--base needs a value (have: $(kernel_bases | paste -sd' '))"
		base_use "$2"
		shift 2
	else
		base_use "$DEFAULT_BASE"
	fi
	# shellcheck disable=SC2034 # read by the scripts that call it
	BASE_ARGS_LEFT=("$@")
}

# The kernel build needs these; install whatever is missing.
need_kbuild_pkgs() {
	need_pkgs gcc:build-essential make:build-essential bc:bc bison:bison flex:flex \
		/usr/include/openssl/ssl.h:libssl-dev /usr/include/libelf.h:libelf-dev \
		pahole:dwarves rsync:rsync depmod:kmod cpio:cpio dpkg-buildpackage:dpkg-dev \
		fakeroot:fakeroot xz:xz-utils
}

# host_suite - this host's Debian codename (its own linux-source packages come from its apt).
host_suite() {
	# shellcheck disable=SC1091
	(. /etc/os-release && printf '%s\n' "$VERSION_CODENAME")
}

# src_deb - the base's linux-source .deb when it comes from another suite than the host's
# (downloaded once into the cache); empty for the host's own suite.
src_deb() {
	[ "$SRC_SUITE" != "$(host_suite)" ] || return 0
	apt_suite_download "$SRC_SUITE" "$SRC_PKG" "$CDEV_COMPAT_CACHE/linux-source/debs"
}

# src_version - the Debian version of the base's linux-source (installed from the host's apt
# when the base is the host's suite, else the candidate of its suite).
src_version() {
	local deb
	deb=$(src_deb)
	if [ -z "$deb" ]; then
		need_pkgs "/usr/src/$SRC_PKG.tar.xz:$SRC_PKG"
		dpkg-query -W -f='${Version}' "$SRC_PKG"
	else
		dpkg-deb -f "$deb" Version
	fi
}

# src_tarball - the base's pristine linux-source tarball (from the .deb, extracted once).
src_tarball() {
	local deb t
	deb=$(src_deb)
	if [ -z "$deb" ]; then
		need_pkgs "/usr/src/$SRC_PKG.tar.xz:$SRC_PKG"
		printf '%s\n' "/usr/src/$SRC_PKG.tar.xz"
		return 0
	fi
	t=$KCACHE/source/$(basename "$deb" .deb)/$SRC_PKG.tar.xz
	if [ ! -s "$t" ]; then
		mkdir -p "${t%/*}"
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$SRC_PKG.tar.xz" >"$t.tmp" ||
			die "no /usr/src/$SRC_PKG.tar.xz in $deb"
		mv "$t.tmp" "$t"
	fi
	printf '%s\n' "$t"
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

# series_files - the base's committed series, in order (cover letter excluded: it changes
# nothing).
series_files() {
	local f
	for f in "$BASE_DIR"/patches/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$f" ] || die "no patches in $BASE_DIR/patches (kernel/make-series.sh $BASE)"
		case "${f##*/}" in 0000-cover-letter.patch) continue ;; esac
		printf '%s\n' "$f"
	done
}

# series_sha - a sha256 over what the series changes in a tree: each patch from its diffstat
# on (its message and headers change no file, so a reworded message rebuilds nothing).
series_sha() {
	local f
	while read -r f; do
		sed '1,/^---$/d' "$f"
	done < <(series_files) | sha256sum | cut -c1-16
}

# extract_source DEST - unpack the base's pristine linux-source tarball into DEST (must not
# exist); the tree ends up in DEST itself.
extract_source() {
	local dest=$1 tmp tarball
	[ ! -e "$dest" ] || die "$dest already exists"
	need_pkgs xz:xz-utils
	tarball=$(src_tarball)
	tmp=$(mktemp -d "$(dirname "$dest")/.extract.XXXXXX")
	tar -C "$tmp" -xf "$tarball"
	[ -f "$tmp/$SRC_PKG/Makefile" ] || die "unexpected layout in $tarball"
	mv "$tmp/$SRC_PKG" "$dest"
	rmdir "$tmp"
}

# apply_series_clean TREE - apply the base's committed series with patch -p1; any fuzz, offset
# or reject is an error (the series is made against exactly this source version).
apply_series_clean() {
	local tree=$1 p out
	need_pkgs patch:patch
	while read -r p; do
		if ! out=$(patch -d "$tree" -p1 --dry-run --fuzz=0 -N <"$p" 2>&1) ||
			grep -q -e '^Hunk' -e 'FAILED' -e 'reject' <<<"$out"; then
			printf '%s\n' "$out" >&2
			die "${p##*/} does not apply cleanly to $SRC_PKG $(src_version) (kernel/make-series.sh $BASE)"
		fi
		patch -d "$tree" -p1 --fuzz=0 -N --no-backup-if-mismatch -s <"$p" ||
			die "applying ${p##*/} failed"
		log "applied ${p##*/}"
	done < <(series_files)
}
