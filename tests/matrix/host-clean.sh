#!/bin/bash
# host-clean.sh - `make host-clean`: undo what tests/matrix/host-setup.sh changed in the host's
# apt configuration: the bookworm-backports source and its pin. The packages it installed
# (mkosi, and systemd 254 from backports) stay installed; apt will not upgrade them further.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"

[ "$(id -u)" -eq 0 ] || die "run as root"
removed=0
for f in /etc/apt/sources.list.d/cdev-compat-bookworm-backports.sources \
	/etc/apt/preferences.d/cdev-compat-bookworm-backports.pref; do
	if [ -f "$f" ] && grep -q '^# Written by cdev-compat tests/matrix/host-setup.sh' "$f"; then
		rm -f "$f"
		log "removed $f"
		removed=1
	fi
done
if [ "$removed" -eq 1 ]; then
	apt-get update >&2 || die "apt-get update failed"
fi
log "the host's apt sources are as before host-setup.sh; installed packages are kept"
