#!/bin/bash
# Helpers for the host test scripts (tests/host/t-*.sh). Source it.
# shellcheck shell=bash

# shellcheck source=../../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

HOST_TESTS=$CDEV_TOP/tests/host
TEST_WORK=${TEST_WORK:-$BUILD_DIR/host-tests}
mkdir -p "$TEST_WORK"

# TAP-style result lines; tests/host/run-checks.sh numbers and counts them, and holds a suite
# to its plan: a suite that declares one ("1..N", before its first result) and prints fewer or
# more results fails.
ok() { printf 'ok - %s\n' "$*"; }
not_ok() { printf 'not ok - %s\n' "$*"; }
plan() { printf '1..%d\n' "$1"; }
# in_parts VAR NAME DEFAULT - whether NAME is one of the words of $VAR (DEFAULT when VAR is
# unset or empty): the parts of a suite a run asks for (a mutant's run needs only its own).
in_parts() {
	local list=${!1:-$3}
	[[ " $list " == *" $2 "* ]]
}
# check DESC CMD... - one result line from a command's status.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}


# headers_twoarg - build dir of the installed Debian 6.1 headers (linux-headers-amd64 is
# installed when missing); prints it.
headers_twoarg() {
	local pkg
	if ! dpkg-query -W -f='${Status}' linux-headers-amd64 2>/dev/null | grep -q 'ok installed'; then
		log "installing linux-headers-amd64"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends linux-headers-amd64 >&2 ||
			{ apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends linux-headers-amd64 >&2; } ||
			die "cannot install linux-headers-amd64"
	fi
	pkg=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 | grep -o 'linux-headers-[^ ,]*-amd64' | head -n1)
	[ -n "$pkg" ] || die "cannot resolve the headers package behind linux-headers-amd64"
	[ -d "/usr/src/$pkg" ] || die "/usr/src/$pkg missing although $pkg is installed"
	printf '/usr/src/%s\n' "$pkg"
}

# headers_bullseye - build dir of Debian 11's kernel headers (5.10, the oldest target kernel),
# downloaded once from the host's mirror into $CDEV_COMPAT_CACHE/headers/ with the kbuild tools
# they need (whose binaries run here); prints it. Debian builds them with gcc-10: give the
# probes and builds CC=gcc (HEADERS_BULLSEYE_ARGS).
# shellcheck disable=SC2034 # for the callers
HEADERS_BULLSEYE_ARGS=(CC=gcc)
headers_bullseye() {
	local meta pkg common kbuild dir deb lock
	meta=$(apt_suite_download bullseye linux-headers-amd64 "$CDEV_COMPAT_CACHE/headers/debs")
	pkg=$(dpkg-deb -f "$meta" Depends | grep -o 'linux-headers-[^ ,]*-amd64' | head -n1)
	[ -n "$pkg" ] || die "cannot resolve bullseye's linux-headers-amd64 ($meta)"
	dir=$CDEV_COMPAT_CACHE/headers/bullseye-$pkg
	if [ ! -f "$dir/.complete" ]; then
		exec {lock}>"$dir.lock"
		flock "$lock"
		if [ ! -f "$dir/.complete" ]; then
			deb=$(apt_suite_download bullseye "$pkg" "$CDEV_COMPAT_CACHE/headers/debs")
			common=$(dpkg-deb -f "$deb" Depends | grep -o 'linux-headers-[^ ,]*-common' | head -n1)
			kbuild=$(dpkg-deb -f "$deb" Depends | grep -o 'linux-kbuild-[^ ,]*' | head -n1)
			{ [ -n "$common" ] && [ -n "$kbuild" ]; } || die "cannot resolve what $pkg depends on"
			rm -rf "$dir"
			mkdir -p "$dir"
			for deb in "$deb" "$(apt_suite_download bullseye "$common" "$CDEV_COMPAT_CACHE/headers/debs")" \
				"$(apt_suite_download bullseye "$kbuild" "$CDEV_COMPAT_CACHE/headers/debs")"; do
				dpkg-deb -x "$deb" "$dir"
			done
			sed -i "s#^include /usr/src/#include $dir/usr/src/#" "$dir/usr/src/$pkg/Makefile"
			touch "$dir/.complete"
		fi
		exec {lock}>&-
	fi
	printf '%s\n' "$dir/usr/src/$pkg"
}

# headers_onearg - build dir of the one-arg headers tree (made on demand); prints it.
headers_onearg() {
	"$HOST_TESTS/make-onearg-headers.sh"
}

# clone_headers KDIR TOP - copy a Debian headers build dir and the -common tree it includes
# into TOP, so that the copy's headers can be changed; the copy's include/linux/fs.h is a
# file of its own. Prints the copy's build dir.
clone_headers() {
	local kdir=$1 top=$2 common_src flavour link
	flavour=$(basename "$kdir")
	common_src=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$kdir/Makefile")
	[ -d "$common_src" ] || die "cannot find the -common headers that $kdir/Makefile includes"
	mkdir -p "$top"
	cp -a "$common_src" "$top/"
	cp -a "$kdir" "$top/"
	# Relative links (into /usr/lib/linux-kbuild-*) would dangle in the copy.
	for link in "$top/$(basename "$common_src")"/{scripts,tools} "$top/$flavour"/{scripts,tools}; do
		[ -L "$link" ] || continue
		ln -sfn "$(readlink -f "$(dirname "$kdir")/${link#"$top"/}")" "$link"
	done
	sed -i "s#^include .*/Makefile\$#include $top/$(basename "$common_src")/Makefile#" "$top/$flavour/Makefile"
	printf '%s\n' "$top/$flavour"
}

# derived_headers NAME SCRIPT KEYTEXT - a changed copy of the installed Debian 6.1 headers,
# cached in $CDEV_COMPAT_CACHE/NAME/FLAVOUR-KEY, keyed by the headers package version, KEYTEXT
# and SCRIPT (the script that makes it). Sets DH_TOP, DH_KDIR (the copy's build dir),
# DH_COMMON (its -common tree) and DH_VERSION. When DH_TOP/.complete exists the copy is ready
# (the caller prints DH_KDIR and stops); otherwise DH_KDIR is a fresh copy (clone_headers) for
# the caller to change and then mark with DH_TOP/.complete.
# shellcheck disable=SC2034 # DH_* are for the caller
derived_headers() {
	local name=$1 script=$2 keytext=$3 twoarg flavour key
	twoarg=$(headers_twoarg)
	flavour=$(basename "$twoarg")
	DH_VERSION=$(dpkg-query -W -f='${Version}' "$flavour")
	key=$({ printf '%s\n%s\n%s\n' "$flavour" "$DH_VERSION" "$keytext"; cat "$script"; } |
		sha256sum | cut -c1-16)
	DH_TOP=$CDEV_COMPAT_CACHE/$name/$flavour-$key
	DH_KDIR=$DH_TOP/$flavour
	if [ ! -f "$DH_TOP/.complete" ]; then
		# One maker per entry (suites run in parallel): the lock is held until the calling
		# script, which marks the entry complete, ends; a waiter then finds it complete.
		mkdir -p "${DH_TOP%/*}"
		exec {DH_LOCK}>"$DH_TOP.lock"
		flock "$DH_LOCK"
		if [ ! -f "$DH_TOP/.complete" ]; then
			rm -rf "$DH_TOP"
			DH_KDIR=$(clone_headers "$twoarg" "$DH_TOP")
		fi
	fi
	DH_COMMON=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$DH_KDIR/Makefile")
}

# kbuild KDIR DIR LOG [ARG...] - build the modules in DIR against KDIR with W=1; output in LOG.
kbuild() {
	local kdir=$1 dir=$2 logf=$3
	shift 3
	make -C "$kdir" M="$dir" W=1 -j"$(nproc)" "$@" modules >"$logf" 2>&1
}

# check_shim_build KDIR DIR WHAT ARITY - build a copy of compat/ + shim/ in DIR against KDIR
# with W=1: one result line for "builds, no diagnostic", one for the recorded arity.
check_shim_build() {
	local kdir=$1 dir=$2 what=$3 want=$4 status=0 n args
	mkdir -p "$dir"
	cp -a "$CDEV_TOP/compat" "$CDEV_TOP/shim" "$dir/"
	kbuild "$kdir" "$dir/shim" "$dir/build.log" || status=$?
	n=$(warnings "$dir/build.log" | wc -l)
	check "cdev_shim.ko builds with W=1 and no diagnostic on $what (status $status, $n diagnostics; log $dir/build.log)" \
		test "$status" -eq 0 -a "$n" -eq 0 -a -f "$dir/shim/cdev_shim.ko"
	args=$(/sbin/modinfo -F cdev_compat_unregister_args "$dir/shim/cdev_shim.ko" 2>/dev/null || true)
	check "cdev_shim.ko built on $what records unregister_chrdev arity $want (modinfo: '$args')" \
		test "$args" = "$want"
}

# warnings LOG - the diagnostics in a build log (compiler warnings and errors, from any file,
# the compat headers' included; modpost's WARNING/ERROR), one per line, paths reduced to the
# file name, sorted (LC_ALL=C) and unique.
warnings() {
	grep -iE '(warning|error):' "$1" | sed -E 's#^.*/([^/:]+:[0-9]+:[0-9]+:)#\1#' | LC_ALL=C sort -u || true
}

# new_diagnostics BASE_LOG LOG - the diagnostics of LOG that BASE_LOG does not have, compared
# without line and column (a force-included header shifts no line, but a converted file may),
# every file's kept: a warning from the compat header counts like one from the driver.
new_diagnostics() {
	LC_ALL=C comm -13 <(warnings "$1" | sed -E 's/:[0-9]+:[0-9]+:/:/' | LC_ALL=C sort -u) \
		<(warnings "$2" | sed -E 's/:[0-9]+:[0-9]+:/:/' | LC_ALL=C sort -u)
}

# source_files REL... - files of Debian's linux-source-6.1 (installed when missing), extracted
# to the cache in one pass over the tarball; prints the directory they are under.
source_files() {
	local tarball=/usr/src/linux-source-6.1.tar.xz ver dir rel missing=()
	need_pkgs "$tarball:linux-source-6.1" xz:xz-utils
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
	dir=$CDEV_COMPAT_CACHE/linux-source-files/$ver
	for rel in "$@"; do
		[ -f "$dir/$rel" ] || missing+=("linux-source-6.1/$rel")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		mkdir -p "$dir"
		# One extraction at a time into the directory (suites run in parallel).
		local lock
		exec {lock}>"$dir.lock"
		flock "$lock"
		# One pass over the whole xz tarball: a minute or more on a busy machine.
		with_progress "extracting ${#missing[@]} files from $tarball" "$dir.extract.log" - - \
			tar -xJf "$tarball" -C "$dir" --strip-components=1 "${missing[@]}" ||
			die "cannot extract ${missing[*]} from $tarball (log $dir.extract.log)"
		exec {lock}>&-
	fi
	printf '%s\n' "$dir"
}

# npm_prefix NAME PKG@VERSION... - a directory (printed) whose node_modules holds PKGs, installed
# once into $CDEV_COMPAT_CACHE/npm/NAME from the registry npm's own configuration names (with
# nodejs and npm from apt when missing). NAME carries the versions, so the cache is keyed by them.
npm_prefix() {
	local name=$1 prefix=$CDEV_COMPAT_CACHE/npm/$1 lock
	shift
	need_pkgs npm:npm node:nodejs /etc/ssl/certs/ca-certificates.crt:ca-certificates
	mkdir -p "$CDEV_COMPAT_CACHE/npm"
	exec {lock}>"$CDEV_COMPAT_CACHE/npm/.lock"
	flock "$lock"
	if [ ! -f "$prefix/.installed" ]; then
		rm -rf "$prefix"
		mkdir -p "$prefix"
		# The system's CA store (Debian's ca-certificates and what the machine's admin added), not
		# only node's built-in list: a network that inspects TLS has its CA there.
		npm install --no-audit --no-fund --cafile /etc/ssl/certs/ca-certificates.crt --prefix "$prefix" "$@" \
			>"$prefix.install.log" 2>&1 || die "npm install $* failed; see $prefix.install.log"
		: >"$prefix/.installed"
	fi
	exec {lock}>&-
	printf '%s\n' "$prefix"
}
