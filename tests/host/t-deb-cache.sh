#!/bin/bash
# t-deb-cache.sh - scripts/build-deb.sh is cached by its inputs: run again on the same tree it
# keeps the .debs it built (no build), and after a change of a packaged file it builds them
# again, with the change inside. Runs on a copy of the packaged paths, debian/matrix-tree
# (outside any git checkout: build-deb.sh then packs the copy as it is), lintian left out (t_deb
# runs it).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs dpkg-buildpackage:dpkg-dev dh:debhelper dh_dkms:dh-dkms
work=$TEST_WORK/deb-cache
rm -rf "$work"
mkdir -p "$work/tree/scripts" "$work/out"
mapfile -t paths <"$CDEV_TOP/debian/matrix-tree"
tar -C "$CDEV_TOP" -cf - "${paths[@]}" | tar -C "$work/tree" -xf -

# build NAME - build-deb.sh in the copy, git kept from finding the project's checkout above it;
# output in $work/NAME.log.
build() {
	GIT_CEILING_DIRECTORIES=$work "$work/tree/scripts/build-deb.sh" --no-lintian --outdir "$work/out" \
		>"$work/$1.log" 2>&1
}
deb=''
if build first; then
	deb=$(grep -m1 'cdev-compat-dkms_.*\.deb$' "$work/first.log")
	ok "a first build: $deb"
else
	not_ok "the first build failed: $(tail -n 3 "$work/first.log" | tr '\n' ' ')"
	exit 1
fi
sum1=$(sha256sum "$deb" | cut -d' ' -f1)

# The matrix package runs without a checkout: its tree must hold every path its files name
# from the top ($CDEV_TOP/..., $top/... in the command) or relative to themselves
# ($(dirname ...)/../...). Not shipped on purpose: build (a checkout's output dir; an installed
# run uses its cache), mkosi.conf.d (optional), .git (how the command tells a checkout).
x=$work/matrix-extract
rm -rf "$x"
dpkg-deb -x "${deb/cdev-compat-dkms_/cdev-compat-matrix_}" "$x" || not_ok "cannot extract the matrix package"
m=$x/usr/share/cdev-compat-matrix
missing=()
# shellcheck disable=SC2016 # (a pattern for the text "$CDEV_TOP", not an expansion)
while IFS=: read -r f ref; do
	# shellcheck disable=SC2016 # (the text of a reference, not an expansion)
	case "$ref" in
	*CDEV_TOP* | '$top'*) p=$m/${ref#*/} ;;
	*) p=$(dirname "$m/$f")/${ref#*)/} ;;
	esac
	case "${p#"$m"/}" in build | mkosi.conf.d | .git) continue ;; esac
	[ -e "$p" ] || missing+=("$(realpath -m --relative-to="$m" "$p") (named in $f)")
done < <(cd "$m" && grep -rIHoE '(\$\{?CDEV_TOP\}?"?|\$top)/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*|dirname "[^"]*"\)/\.\./[A-Za-z0-9_./-]+' . |
	sed 's#^\./##' | sort -u)
check "the matrix package's tree holds every path its files name (missing: ${missing[*]:-none})" test "${#missing[@]}" -eq 0
build second || true
check "the same inputs: the .debs are kept, nothing is built ($(grep -m1 'build-deb.sh:' "$work/second.log"))" \
	eval "grep -q ': cached (inputs ' '$work/second.log' && ! grep -q 'built in' '$work/second.log' &&
		[ \"\$(sha256sum '$deb' | cut -d' ' -f1)\" = '$sum1' ]"
echo "cdev-compat t-deb-cache $$" >>"$work/tree/docs/vendors.md"
build third || true
check "a packaged file changed: the .debs are built again ($(grep -m1 'built in' "$work/third.log" || echo 'not built'))" \
	grep -q 'built in' "$work/third.log"
check "... and the new .deb holds the change" \
	eval "dpkg-deb --fsys-tarfile '$deb' | tar -xOf - ./usr/share/doc/cdev-compat-dkms/vendors.md.gz 2>/dev/null | zcat |
		grep -q 'cdev-compat t-deb-cache $$'"
