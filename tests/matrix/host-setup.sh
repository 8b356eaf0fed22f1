#!/bin/bash
# Install what the matrix needs on the host: mkosi 24 (bookworm-backports), QEMU, reprepro,
# a static C toolchain for the guest programs, Coccinelle and xz for the legacy drivers' tests.
# The bookworm-backports source is written at run time from the host's own apt mirror (no host
# name in the repository). Runnable alone.
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

if ! mkosi_ok; then
	mirror=$(apt_mirror_debian)
	src=/etc/apt/sources.list.d/cdev-compat-bookworm-backports.sources
	log "adding bookworm-backports from $mirror to $src"
	cat >"$src" <<EOS
# Written by cdev-compat tests/matrix/host-setup.sh: mkosi 24 comes from bookworm-backports.
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	apt-get update >&2 || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		-t bookworm-backports mkosi >&2 || die "cannot install mkosi from bookworm-backports"
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
