#!/bin/bash
# setup-host.sh - install what the project's entry points need on a fresh Debian 12 machine
# (run as root). Each script installs its own further needs; this brings make and the common
# build tools so that `make` can start: build-essential, not a bare gcc (installed without
# recommends, gcc comes without libc6-dev, so without <stdio.h>, and dpkg-buildpackage wants
# build-essential itself). Idempotent and quick when all is there.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" -eq 0 ] || die "run as root (apt-get installs packages)"
pkgs=(build-essential make gcc libc6-dev bc bison flex git python3 patch patchutils shellcheck
	xz-utils kmod cpio linux-headers-amd64 linux-source-6.1)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing ${missing[*]}"
	apt-get update >&2 || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
		die "cannot install ${missing[*]}"
fi
