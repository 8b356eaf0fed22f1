#!/bin/bash
# Build build/matrix/standin/cdev-compat-dkms_0.0~standin_all.deb: a DKMS package with the
# same name and user-facing module as the real one (scripts/build-deb.sh), for developing the
# matrix before the real package exists. run-matrix.sh uses it with CDEV_MATRIX_DEB=standin.
# Prints the .deb's path. Runnable alone.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"

need_pkgs dpkg-deb:dpkg
ver=0.0~standin
out=$BUILD_DIR/matrix/standin
root=$out/root
src=$(dirname "$0")/standin/src
deb=$out/cdev-compat-dkms_${ver}_all.deb
# Rebuild only when the sources changed, so the image cache key stays stable.
if [ -f "$deb" ] && [ -z "$(find "$src" "$0" -newer "$deb" -print -quit)" ]; then
	printf '%s\n' "$deb"
	exit 0
fi
rm -rf "$root"
mkdir -p "$root/DEBIAN" "$root/usr/src/cdev-compat-$ver"
cp "$src"/* "$root/usr/src/cdev-compat-$ver/"
cat >"$root/DEBIAN/control" <<EOC
Package: cdev-compat-dkms
Version: $ver
Architecture: all
Section: kernel
Priority: optional
Maintainer: cdev-compat matrix <matrix@invalid>
Depends: dkms
Description: cdev-compat matrix stand-in (not the real package)
 Exercises the matrix plumbing before the real cdev-compat-dkms exists.
EOC
cat >"$root/DEBIAN/postinst" <<'EOP'
#!/bin/sh
set -e
[ "$1" = configure ] || exit 0
dkms add -m cdev-compat -v 0.0~standin >/dev/null 2>&1 || true
for d in /lib/modules/*/build; do
	[ -e "$d" ] || continue
	k=${d%/build}; k=${k##*/}
	dkms install -m cdev-compat -v 0.0~standin -k "$k"
done
EOP
cat >"$root/DEBIAN/prerm" <<'EOP'
#!/bin/sh
set -e
dkms remove -m cdev-compat -v 0.0~standin --all >/dev/null 2>&1 || true
EOP
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
printf '%s\n' "$deb"
