#!/bin/bash
# Install what the matrix needs on the host: mkosi 24 (bookworm-backports), QEMU, reprepro,
# a static C toolchain for the guest programs, Coccinelle and xz for the legacy drivers' tests.
# Runnable alone.
#
# The host's apt sources are left as they are: mkosi's .deb is downloaded from
# bookworm-backports with a private apt configuration (sources written at run time from the
# host's own mirror, state under $CDEV_COMPAT_CACHE/host-apt), then installed with the host's
# apt, which takes its dependencies from the host's own sources. (An earlier version of this
# script added a bookworm-backports source to the host; that file is removed.)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"

[ "$(id -u)" -eq 0 ] || die "run as root (apt-get install)"

mkosi_ok() {
	command -v mkosi >/dev/null 2>&1 || return 1
	local v
	v=$(mkosi --version 2>/dev/null | awk '{print $2}')
	[ "${v%%.*}" -ge 24 ] 2>/dev/null
}

old_src=/etc/apt/sources.list.d/cdev-compat-bookworm-backports.sources
if [ -f "$old_src" ] && grep -q '^# Written by cdev-compat tests/matrix/host-setup.sh' "$old_src"; then
	log "removing $old_src (an earlier version added it; the host's sources stay as they were)"
	rm -f "$old_src"
	apt-get update >&2 || die "apt-get update failed"
fi

if ! mkosi_ok; then
	mirror=$(apt_mirror_debian)
	st=$CDEV_COMPAT_CACHE/host-apt
	rm -rf "${st:?}/etc" "${st:?}/debs"
	mkdir -p "$st/etc/sources.list.d" "$st/etc/preferences.d" "$st/lists/partial" \
		"$st/cache/archives/partial" "$st/debs"
	touch "$st/status"
	cat >"$st/etc/sources.list.d/backports.sources" <<EOS
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	private_apt() {
		apt-get -o "Dir::Etc=$st/etc" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" \
			-o "Dir::State::status=$st/status" -o "Dir::Cache=$st/cache" -o Debug::NoLocking=1 \
			-o Acquire::Languages=none -o APT::Sandbox::User=root "$@"
	}
	log "downloading mkosi from bookworm-backports ($mirror) with a private apt configuration"
	private_apt -qq update >&2 || die "apt-get update of bookworm-backports failed"
	(cd "$st/debs" && private_apt -qq download mkosi) >&2 || die "cannot download mkosi from bookworm-backports"
	deb=$(find "$st/debs" -name 'mkosi_*.deb' | head -n1)
	[ -n "$deb" ] || die "no mkosi .deb downloaded"
	log "installing ${deb##*/} (its dependencies from the host's own sources)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$deb" >&2 ||
		die "cannot install ${deb##*/}"
	mkosi_ok || die "mkosi >= 24 not available after install"
fi

need_pkgs qemu-system-x86_64:qemu-system-x86 reprepro:reprepro gcc:gcc cpio:cpio \
	zstd:zstd debootstrap:debootstrap dpkg-deb:dpkg sha256sum:coreutils \
	systemd-repart:systemd-repart bwrap:bubblewrap xz:xz-utils gzip:gzip spatch:coccinelle \
	/usr/include/linux/ppp-ioctl.h:linux-libc-dev
# Static libc for the isa-debug-exit helper.
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || need_pkgs __libc_dev:libc6-dev
[ -e /usr/share/keyrings/debian-archive-trixie-stable.gpg ] || need_pkgs __keyring:debian-archive-keyring
log "host ready: $(mkosi --version)"
