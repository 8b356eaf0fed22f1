#!/bin/bash
# t-kernel-exports.sh - the one-arg kernels export what Debian's generic kernel of the same base
# exports for the subsystems char drivers link against (issue 33 item 7): for each subsystem of
# kernel/config/exports.list, every symbol its source files export that Debian's generic
# Module.symvers lists (6.1: the installed linux-headers-amd64; 7.3: trixie-backports',
# downloaded) is in the one-arg kernel's Module.symvers (its headers .deb, from make kernel). A
# vendor's module then links on the one-arg rows as on its users' kernels.
# Part: make test (after make kernel: it reads the headers packages the kernel builds made)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=../matrix/lib/kernels.sh
. "$CDEV_TOP/tests/matrix/lib/kernels.sh"

work=$TEST_WORK/kernel-exports
rm -rf "$work"
mkdir -p "$work"
list=$CDEV_TOP/kernel/config/exports.list

# debian_symvers BASE - Module.symvers of Debian's generic kernel of BASE; prints its path.
debian_symvers() {
	local suite meta pkg deb dir
	suite=$(sed -n 's/^source_suite=//p' "$CDEV_TOP/kernel/bases/$1/base.conf")
	if [ "$suite" = "$(. /etc/os-release && printf '%s' "$VERSION_CODENAME")" ]; then
		printf '%s/Module.symvers\n' "$(headers_twoarg)"
		return
	fi
	meta=$(apt_suite_download "$suite" linux-headers-amd64 "$CDEV_COMPAT_CACHE/headers/debs")
	pkg=$(dpkg-deb -f "$meta" Depends | grep -o 'linux-headers-[^ ,]*-amd64' | head -n1)
	[ -n "$pkg" ] || die "cannot resolve $suite's linux-headers-amd64"
	dir=$CDEV_COMPAT_CACHE/headers/$suite-$pkg
	if [ ! -s "$dir/Module.symvers" ]; then
		deb=$(apt_suite_download "$suite" "$pkg" "$CDEV_COMPAT_CACHE/headers/debs")
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		dpkg-deb --fsys-tarfile "$deb" | tar -C "$dir.tmp" -xf - --wildcards '*/Module.symvers'
		mkdir -p "$dir"
		mv "$(find "$dir.tmp" -name Module.symvers | head -n1)" "$dir/Module.symvers"
		rm -rf "$dir.tmp"
	fi
	printf '%s/Module.symvers\n' "$dir"
}

declare -A done_base=()
while read -r k base flavour <&3; do
	[ -z "${done_base[$base]:-}" ] || continue
	done_base[$base]=1
	dir=$BUILD_DIR/kernel/$base-$flavour
	deb=$(find "$dir" -maxdepth 1 -name 'linux-headers-*.deb' 2>/dev/null | head -n1)
	if [ -z "$deb" ]; then
		"$CDEV_TOP/kernel/build-kernel.sh" --base "$base" "$flavour" >&2 ||
			die "kernel/build-kernel.sh --base $base $flavour failed"
		deb=$(find "$dir" -maxdepth 1 -name 'linux-headers-*.deb' | head -n1)
	fi
	ours=$work/$base.symvers
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - --wildcards '*/Module.symvers' >"$ours"
	debian=$(debian_symvers "$base")
	tree=$("$CDEV_TOP/kernel/apply-series.sh" --base "$base" | tail -n1)
	awk '{ print $2 }' "$debian" | LC_ALL=C sort -u >"$work/$base.debian"
	awk '{ print $2 }' "$ours" | LC_ALL=C sort -u >"$work/$base.ours"
	printf '# %s (%s): %s against Debian'"'"'s %s\n' "$k" "$base" "$(basename "$deb")" "$debian"
	while read -r sub files; do
		case "$sub" in '' | '#'*) continue ;; esac
		# shellcheck disable=SC2086 # the globs of the list
		(cd "$tree" && cat $files) | grep -ohE 'EXPORT_SYMBOL(_GPL)?(_NS(_GPL)?)?\([[:space:]]*[A-Za-z0-9_]+' |
			sed 's/.*([[:space:]]*//' | LC_ALL=C sort -u >"$work/$base.$sub.src"
		want=$(LC_ALL=C comm -12 "$work/$base.$sub.src" "$work/$base.debian" | wc -l)
		absent=$(LC_ALL=C comm -12 "$work/$base.$sub.src" "$work/$base.debian" |
			LC_ALL=C comm -23 - "$work/$base.ours" | tr '\n' ' ')
		check "$k exports all $want $sub symbols Debian's generic $base kernel does${absent:+ (missing: ${absent:0:300})}" \
			test "$want" -gt 0 -a -z "$absent"
	done <"$list"
done 3< <(kernel_builds suite)
