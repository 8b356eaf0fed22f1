#!/bin/bash
# Build cdev-compat-dkms_<version>_all.deb, cdev-compat-test-dkms_<version>_all.deb and
# cdev-compat-matrix_<version>_all.deb (what `make deb` runs). The build happens in a copy under
# build/deb/, so the source tree is never written. The .debs are checked before they are
# published: lintian -EvIL +pedantic must print no tag, and no #MODULE_VERSION# may be left in
# them; only then do they land in build/ (or --outdir), where a previous build's .debs are
# replaced; built again only when their inputs changed. Prints their paths, one a line: user package, test package, matrix package.
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

# The packages are made of these paths only: the matrix package ships the tree it runs
# (debian/matrix-tree), which holds the two others' paths too.
[ -f "$CDEV_TOP/debian/matrix-tree" ] || die "debian/matrix-tree is missing"
mapfile -t paths <"$CDEV_TOP/debian/matrix-tree"
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
debs=("cdev-compat-dkms_${debver#*:}_all.deb" "cdev-compat-test-dkms_${debver#*:}_all.deb"
	"cdev-compat-matrix_${debver#*:}_all.deb")

# Cached by their inputs: the packaged files, this script, the lintian check. When the .debs in
# the output directory were built from the same inputs, they are kept (make matrix runs this
# before every run).
key=$({
	(cd "$work/src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum &&
		find . -type l -printf '%p -> %l\n' | LC_ALL=C sort)
	sha256sum <"$0"
	echo "lintian=$lintian"
} | sha256sum | cut -c1-16)
stamp=$outdir/.cdev-compat-debs.key
cached=0
if [ "$(cat "$stamp" 2>/dev/null)" = "$key" ]; then
	cached=1
	for deb in "${debs[@]}"; do [ -f "$outdir/$deb" ] || cached=0; done
fi
if [ "$cached" -eq 1 ]; then
	log "${debs[*]}: cached (inputs $key unchanged)"
	printf '%s\n' "${debs[@]/#/$outdir/}"
	exit 0
fi
log "building ${debs[*]} in $work (log $work/build.log)"
(cd "$work/src" && dpkg-buildpackage -b --no-sign) >"$work/build.log" 2>&1 ||
	die "dpkg-buildpackage failed; see $work/build.log"

for deb in "${debs[@]}"; do
	[ -f "$work/$deb" ] || die "dpkg-buildpackage made no $deb; see $work/build.log"
	# No placeholder may survive anywhere: control files, maintainer scripts, payload (but the
	# matrix's copy of the source tree, which the installed matrix builds these packages from).
	rm -rf "$work/extract"
	mkdir -p "$work/extract"
	dpkg-deb -R "$work/$deb" "$work/extract"
	if grep -rl --exclude-dir=cdev-compat-matrix '#MODULE_VERSION#\|#CDEV_VERSION#' "$work/extract"; then
		die "$deb still contains a version placeholder (files above)"
	fi
done

if [ "$lintian" = 1 ]; then
	lintian -EvIL +pedantic "${debs[@]/#/$work/}" >"$work/lintian.log" 2>&1 || true
	if grep -E '^[EWIPXO]: ' "$work/lintian.log" >&2; then
		die "lintian -EvIL +pedantic is not clean on ${debs[*]} (full log: $work/lintian.log); nothing published"
	fi
	log "lintian -EvIL +pedantic: clean on ${debs[*]}"
fi

# Publish: only checked packages, replacing what an earlier build left.
for deb in "${debs[@]}"; do rm -f "$outdir/${deb%%_*}"_*_all.deb; done
rm -f "$stamp"
for deb in "${debs[@]}"; do
	mv "$work/$deb" "$outdir/$deb"
done
echo "$key" >"$stamp"
log "${debs[*]} built in $(elapsed "$start")s"
printf '%s\n' "${debs[@]/#/$outdir/}"
