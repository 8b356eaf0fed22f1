#!/bin/bash
# Install what the matrix needs on the host: mkosi 24 (bookworm-backports), QEMU, reprepro,
# a static C toolchain for the guest programs, Coccinelle and xz for the legacy drivers' tests.
# Runnable alone.
#
# What it changes on the host, beyond installing packages: mkosi 24 needs systemd >= 254, which
# Debian 12 has only in bookworm-backports. So it adds a bookworm-backports source (URI from the
# host's own apt configuration) with a pin that allows only mkosi and the systemd source
# package from it (priority 500) and nothing else (-1): apt can never take another package from
# backports. Installing mkosi then upgrades the host's systemd packages to backports' 254.
# `make host-clean` (tests/matrix/host-clean.sh) removes the source and the pin; the packages
# stay installed. README.md says so in its setup section.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"

[ "$(id -u)" -eq 0 ] || die "run as root (apt-get install)"
# mkosi 24 asks findmnt for the file system of /; in a plain chroot / is no mount point and it
# stops with a bare 'findmnt ... returned non-zero exit code 1'. Say what to do instead.
need_pkgs findmnt:util-linux
findmnt --target / >/dev/null 2>&1 ||
	die "/ is not a mount point here (a plain chroot?): mkosi cannot build images; bind-mount the root onto itself (mount --bind DIR DIR) before entering it, or use a machine or container"

src=/etc/apt/sources.list.d/cdev-compat-bookworm-backports.sources
pin=/etc/apt/preferences.d/cdev-compat-bookworm-backports.pref

mkosi_ok() {
	command -v mkosi >/dev/null 2>&1 || return 1
	local v
	v=$(mkosi --version 2>/dev/null | awk '{print $2}')
	[ "${v%%.*}" -ge 24 ] 2>/dev/null
}

if ! mkosi_ok; then
	mirror=$(apt_mirror_debian)
	log "adding bookworm-backports from $mirror to $src, pinned to mkosi and systemd only ($pin)"
	cat >"$pin" <<'EOP'
# Written by cdev-compat tests/matrix/host-setup.sh (removed by make host-clean): from
# bookworm-backports only mkosi and the systemd it needs, nothing else.
Package: mkosi src:systemd
Pin: release n=bookworm-backports
Pin-Priority: 500

Package: *
Pin: release n=bookworm-backports
Pin-Priority: -1
EOP
	cat >"$src" <<EOS
# Written by cdev-compat tests/matrix/host-setup.sh (removed by make host-clean): mkosi 24 and
# the systemd >= 254 it needs come from bookworm-backports; $pin allows nothing else.
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	apt-get update >&2 || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mkosi >&2 ||
		die "cannot install mkosi from bookworm-backports"
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
