#!/bin/bash
# Build cdev-compat-dkms_<version>_all.deb (what `make deb` runs). The build happens in a copy
# under build/deb/, so the source tree is never written; the .deb lands in build/ (or --outdir).
# The .deb is then checked: lintian -EvIL +pedantic must print no tag, and no #MODULE_VERSION#
# may be left in it.
#
# Usage: scripts/build-deb.sh [--version DEBVER] [--outdir DIR] [--no-lintian]
#   --version DEBVER  build with an extra debian/changelog entry DEBVER on top (tests use it to
#                     make an upgrade); the tree's debian/changelog stays the one source of truth
set -euo pipefail
# shellcheck source=scripts/lib.sh
# shellcheck disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

version='' outdir=$BUILD_DIR lintian=1
while [ $# -gt 0 ]; do
	case "$1" in
	--version) version=${2:?}; shift 2 ;;
	--outdir) outdir=${2:?}; shift 2 ;;
	--no-lintian) lintian=0; shift ;;
	*) die "usage: $0 [--version DEBVER] [--outdir DIR] [--no-lintian]" ;;
	esac
done

need_pkgs dpkg-buildpackage:dpkg-dev dh:debhelper dh_dkms:dh-dkms lintian:lintian
start=$(date +%s.%N)

# The package is made of these paths only.
paths=(debian dkms.conf compat shim scripts/cdev-compat-migrate docs/cdev-compat-migrate.1)
for p in "${paths[@]}"; do
	[ -e "$CDEV_TOP/$p" ] || die "$p is missing: the package needs ${paths[*]}"
done

work=$BUILD_DIR/deb${version:+-$version}
rm -rf "$work"
mkdir -p "$work/src" "$outdir"
if git -C "$CDEV_TOP" rev-parse --git-dir >/dev/null 2>&1; then
	# tracked and untracked-but-not-ignored files: the working tree as it is, minus build output
	git -C "$CDEV_TOP" ls-files -z --cached --others --exclude-standard -- "${paths[@]}" |
		while IFS= read -r -d '' f; do
			# a deleted but still tracked file is not part of the working tree
			if [ -e "$CDEV_TOP/$f" ]; then printf '%s\0' "$f"; fi
		done |
		tar -C "$CDEV_TOP" --null -T - -cf - | tar -C "$work/src" -xf -
else
	tar -C "$CDEV_TOP" -cf - "${paths[@]}" | tar -C "$work/src" -xf -
fi

if [ -n "$version" ]; then
	maint=$(dpkg-parsechangelog -l "$work/src/debian/changelog" -S Maintainer)
	{
		printf 'cdev-compat (%s) unstable; urgency=medium\n\n' "$version"
		printf '  * Rebuild with version %s (test build).\n\n' "$version"
		printf ' -- %s  %s\n\n' "$maint" "$(date -R)"
		cat "$work/src/debian/changelog"
	} >"$work/changelog.new"
	mv "$work/changelog.new" "$work/src/debian/changelog"
fi

# Reproducible: every file dated by the changelog, so that the .deb depends on the content
# only (dh clamps newer dates to SOURCE_DATE_EPOCH but keeps older ones, so a working tree and a
# fresh clone would differ), and images keyed by the .deb's hash are reused across checkouts.
sde=$(dpkg-parsechangelog -l "$work/src/debian/changelog" -S Timestamp)
find "$work/src" -exec touch -h -d "@$sde" {} +

debver=$(dpkg-parsechangelog -l "$work/src/debian/changelog" -S Version)
deb=cdev-compat-dkms_${debver#*:}_all.deb
log "building $deb in $work"
(cd "$work/src" && dpkg-buildpackage -b --no-sign) >"$work/build.log" 2>&1 ||
	die "dpkg-buildpackage failed; see $work/build.log"
mv "$work/$deb" "$outdir/$deb"

# No placeholder may survive anywhere: control files, maintainer scripts, payload.
mkdir -p "$work/extract"
dpkg-deb -R "$outdir/$deb" "$work/extract"
if grep -rl '#MODULE_VERSION#\|#CDEV_VERSION#' "$work/extract"; then
	die "$deb still contains a version placeholder (files above)"
fi

if [ "$lintian" = 1 ]; then
	lintian -EvIL +pedantic "$outdir/$deb" >"$work/lintian.log" 2>&1 || true
	if grep -E '^[EWIPXO]: ' "$work/lintian.log" >&2; then
		die "lintian -EvIL +pedantic is not clean on $deb (full log: $work/lintian.log)"
	fi
	log "lintian -EvIL +pedantic: clean"
fi
log "$outdir/$deb built in $(elapsed "$start")s"
printf '%s\n' "$outdir/$deb"
