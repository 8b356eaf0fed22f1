#!/bin/bash
# The package scenarios run by tests/package/run.sh. Source it; each t_* function runs in its own
# subshell with set -e, prints what it checks, and fails (non-zero) at the first failed check.
# shellcheck shell=bash disable=SC2016
# (SC2016: '${Status}' and awk programs are meant literally.)
#
# Scenario roots are overlays (chroot.sh): "headers" = bookworm + dkms + 6.1 and 6.12 headers,
# "base" = the same without any headers. The install scenario's result is reused, copy-on-write,
# as the starting point of the scenarios that need the package installed ("snapshot"); if the
# install scenario failed they install the package themselves.

# "function|scenarios it needs first|description", in TAP order. Scenarios needing t_install start
# from its result; run.sh runs independent ones side by side.
# shellcheck disable=SC2034 # used by run.sh
SCENARIOS=(
	"t_deb||make deb: cdev-compat-dkms, cdev-compat-test-dkms and cdev-compat-matrix .debs build, lintian -EvIL +pedantic clean, no version placeholder; the user package has no test device"
	"t_chroot||bookworm root with 6.1 and bookworm-backports 6.12 headers ready; no module loading possible in it"
	"t_install|t_deb t_chroot|apt install ./cdev-compat-dkms_*.deb: dkms status installed for 6.1 and 6.12, an inert probe-record module (no init, no parameter); then the test package: cdev_shim for both"
	"t_unsupported|t_deb t_chroot|a third kernel whose headers fit no probe variant: both packages still configure, the module is built for the two others, the failing kernel is named with its kept make.log"
	"t_upgrade|t_install|upgrade to a newer version: both kernels installed with the new version (dkms 3.0.10 rebuilds only the newest)"
	"t_remove|t_install|apt remove leaves no module"
	"t_purge|t_install|apt purge leaves nothing under /usr/src, /var/lib/dkms, /var/cache/cdev-compat or /var/log/cdev-compat-dkms"
	"t_noheaders|t_deb t_chroot|no headers: clear message, package configures; headers installed later: the kernel hook builds it, exit 0"
	"t_autopkgtest|t_deb t_chroot|/usr/lib/dkms/dkms-autopkgtest passes for both kernels"
	"t_vendor|t_install|vendor example builds against /usr/share/cdev-compat (dkms with BUILD_DEPENDS, and plain make as a user)"
	"t_signing|t_deb t_chroot|signing key: image-builder settings leave no private key in the image (dkms 3.0.10 generates one)"
	"t_probefail|t_install|a failing probe fails the DKMS build and names the probe's log"
	"t_matrix|t_deb t_chroot|apt install ./cdev-compat-matrix_*.deb in a root without cdev-compat's tree: dependencies from bookworm, the command, its man page, bad input, the two packages rebuilt from the installed tree as a run does, purge"
)

PKG=cdev-compat-dkms
DKMS_NAME=cdev-compat
MODULE=cdev_compat_probes
TPKG=cdev-compat-test-dkms
TDKMS_NAME=cdev-compat-test
TMODULE=cdev_shim

pass() { printf 'PASS: %s\n' "$*"; }
fail() {
	printf 'FAIL: %s\n' "$*"
	exit 1
}
note() { printf 'NOTE: %s\n' "$*"; }
not() { ! "$@"; }
# check WHAT CMD... - CMD must succeed.
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

# apt_deb ROOT DEB OUT [DEB...] - apt install .deb files in ROOT, output (also) into OUT;
# returns apt's status.
apt_deb() {
	local root=$1 deb=$2 out=$3 rc=0 d args=()
	shift 3
	mkdir -p "$root/tmp/debs"
	for d in "$deb" "$@"; do
		cp "$d" "$root/tmp/debs/"
		args+=("/tmp/debs/${d##*/}")
	done
	in_root "$root" apt-get install -y "${args[@]}" >"$out" 2>&1 || rc=$?
	grep -v '^(Reading database' "$out" || true
	return "$rc"
}

# dkms_installed ROOT VERSION KVER [DKMS-NAME] - cdev-compat (or DKMS-NAME) VERSION is installed
# for KVER.
dkms_installed() {
	in_root "$1" dkms status -m "${4:-$DKMS_NAME}" -v "$2" -k "$3" | grep -q ': installed'
}

# module_files ROOT [KVER] - the cdev-compat module files (probe-record and test devices) under
# /lib/modules (paths inside ROOT).
module_files() {
	(cd "$1" && find "lib/modules/${2:-}" \( -name "$MODULE.ko*" -o -name "$TMODULE.ko*" \) 2>/dev/null) || true
}

# modinfo_field ROOT KVER FIELD [MODULE] - FIELD of the cdev_compat_probes (or MODULE)
# installed for KVER.
modinfo_field() {
	local f
	f=$( (cd "$1" && find "lib/modules/$2" -name "${4:-$MODULE}.ko*" 2>/dev/null) | head -n1)
	[ -n "$f" ] || return 1
	in_root "$1" modinfo -F "$3" "/$f"
}

# run_out OUT CMD... - CMD with its output into OUT; its status.
run_out() {
	local out=$1
	shift
	"$@" >"$out" 2>&1
}

# dkms_lists ROOT [VERSION] - dkms status shows some cdev-compat (VERSION).
dkms_lists() {
	in_root "$1" dkms status -m "${3:-$DKMS_NAME}" ${2:+-v "$2"} | grep -q .
}

no_modload() {
	[ ! -e "$1/var/log/cdev-compat-modload.log" ] || {
		cat "$1/var/log/cdev-compat-modload.log"
		return 1
	}
}

# installed_root NAME - ROOT = the installed snapshot (or a fresh install when there is none).
installed_root() {
	if [ -f "$RUN_DIR/snapshot.ok" ]; then
		overlay_mount "$RUN_DIR/$1/root" "$RUN_DIR/$1/upper" "$RUN_DIR/$1/work" \
			"$(cat "$RUN_DIR/snapshot.ok")" "$CHROOT_HEADERS" "$CHROOT_DIR/base"
		root_mount "$RUN_DIR/$1/root"
		root_prepare "$RUN_DIR/$1/root"
		ROOT=$RUN_DIR/$1/root
		note "starting from the install scenario's result"
	else
		root_new "$1" headers
		note "no install snapshot: installing $DEB1 and $DEB1T first"
		apt_deb "$ROOT" "$DEB1" "$RUN_DIR/$1.pre.out" "$DEB1T" >/dev/null || fail "installing $DEB1 $DEB1T"
		tree_list "$ROOT" >"$RUN_DIR/pre-install.list.$1"
	fi
}

# tree_list ROOT - what the purge check compares: every path under /usr/src and /var/lib/dkms,
# the probe cache, and any cdev_shim module.
tree_list() {
	(cd "$1" && find usr/src var/lib/dkms var/cache/cdev-compat var/log/cdev-compat-dkms \
		usr/share/cdev-compat usr/libexec/cdev-compat 2>/dev/null | sort) || true
	module_files "$1"
}

# --- host side ---------------------------------------------------------------------------------

t_deb() {
	local d
	if [ -n "${CDEV_DEB:-}" ]; then
		d=$(printf '%s\n' "$CDEV_DEB" "${CDEV_DEB/cdev-compat-dkms_/cdev-compat-test-dkms_}" \
			"${CDEV_DEB/cdev-compat-dkms_/cdev-compat-matrix_}")
		note "testing the given $CDEV_DEB and its test and matrix packages"
	else
		d=$("$CDEV_TOP/scripts/build-deb.sh")
	fi
	printf '%s\n' "$d" >"$RUN_DIR/deb1"
	check "three packages: $(tr '\n' ' ' <"$RUN_DIR/deb1")" test "$(grep -c . "$RUN_DIR/deb1")" -eq 3
	while read -r d; do
		[ -f "$d" ] || fail "no .deb at $d"
		pass "built $d"
	done <"$RUN_DIR/deb1"
	d=$(sed -n 1p "$RUN_DIR/deb1")
	check "the first is cdev-compat-dkms" test "$(dpkg-deb -f "$d" Package)" = "$PKG"
	dpkg-deb -c "$d" | awk '{ print $6 }' >"$RUN_DIR/user-package.list"
	check "the user package ships no test device source (no shim, no cdev_shim)" \
		not grep -q -e shim -e cdev_shim "$RUN_DIR/user-package.list"
	check "its DKMS source is the probe-record module only (besides the probes)" \
		test "$(grep '^./usr/src/.*\.c$' "$RUN_DIR/user-package.list" | grep -v -e '/probes/' -e '/probe-[^/]*\.c$')" \
		= "./usr/src/cdev-compat-$(dpkg-deb -f "$d" Version | sed 's/-[^-]*$//')/compat/probe-module/cdev_compat_probes.c"
	check "the test package depends on the user package of the same version" \
		grep -q "cdev-compat-dkms (= $(dpkg-deb -f "$d" Version))" \
		<(dpkg-deb -f "$(sed -n 2p "$RUN_DIR/deb1")" Depends)
	# The upgrade target: the same tree with a bumped changelog version, built in a copy.
	local v1 v2
	v1=$(dpkg-deb -f "$d" Version)
	v2=${v1%-*}+test1-1
	"$CDEV_TOP/scripts/build-deb.sh" --version "$v2" --outdir "$RUN_DIR/debs" --no-lintian >"$RUN_DIR/deb2"
	check "built the upgrade target: $(tr '\n' ' ' <"$RUN_DIR/deb2")" test "$(grep -c . "$RUN_DIR/deb2")" -eq 3
	check "the third is cdev-compat-matrix, which depends on no cdev-compat package" \
		test "$(dpkg-deb -f "$(sed -n 3p "$RUN_DIR/deb1")" Package)-$(dpkg-deb -f "$(sed -n 3p "$RUN_DIR/deb1")" Depends | grep -c cdev-compat)" = cdev-compat-matrix-0
	check "no dkms.conf placeholder in the DKMS .debs" \
		sh -c "for d in $(head -n2 "$RUN_DIR/deb1" | tr '\n' ' '); do dpkg-deb --fsys-tarfile \$d | tar -xOf - --wildcards '*/dkms.conf' | grep -q '^PACKAGE_VERSION=\"${v1%-*}\"' || exit 1; done"
}

# Set by the scenarios below from the files t_deb wrote.
load_debs() {
	if [ ! -s "$RUN_DIR/deb1" ] || [ ! -s "$RUN_DIR/deb2" ]; then
		fail "no .deb to test (the build scenario failed)"
	fi
	DEB1=$(sed -n 1p "$RUN_DIR/deb1")
	DEB1T=$(sed -n 2p "$RUN_DIR/deb1")
	DEB1M=$(sed -n 3p "$RUN_DIR/deb1")
	DEB2=$(sed -n 1p "$RUN_DIR/deb2")
	DEB2T=$(sed -n 2p "$RUN_DIR/deb2")
	if [ ! -f "$DEB1T" ] || [ ! -f "$DEB2T" ]; then fail "no test package .deb"; fi
	V1=$(dpkg-deb -f "$DEB1" Version)
	V1=${V1%-*}
	V2=$(dpkg-deb -f "$DEB2" Version)
	V2=${V2%-*}
	chroot_ensure
}

# --- chroot scenarios --------------------------------------------------------------------------

t_chroot() {
	chroot_ensure
	pass "layers in $CHROOT_DIR: kernels $KOLD ($KOLD_PKG) and $KNEW ($KNEW_PKG)"
	root_new "$SCEN" headers
	local bnd
	bnd=$(in_root "$ROOT" awk '/^CapBnd/ { print $2 }' /proc/self/status)
	# CAP_SYS_MODULE is capability 16
	check "CAP_SYS_MODULE is not in the root's bounding set ($bnd)" \
		test $(((16#$bnd >> 16) & 1)) -eq 0
	check "modprobe in the root is the refusing stub" \
		test "$(in_root "$ROOT" sh -c 'command -v modprobe; modprobe cdev_shim 2>/dev/null; echo $?')" = "$(printf '/usr/local/sbin/modprobe\n1')"
	check "and it logged the attempt" test -s "$ROOT/var/log/cdev-compat-modload.log"
	rm -f "$ROOT/var/log/cdev-compat-modload.log"
	check "the host kernel ($(uname -r)) has no modules dir in the root" test ! -e "$ROOT/lib/modules/$(uname -r)"
	check "headers for $KOLD" in_root "$ROOT" test -e "/lib/modules/$KOLD/build/include"
	check "headers for $KNEW" in_root "$ROOT" test -e "/lib/modules/$KNEW/build/include"
	local n
	n=$(in_root "$ROOT" find /lib/modules/ -name '*.ko*' | wc -l)
	check "no module of a kernel image in the root: every dkms depmod -a is quick ($n found)" test "$n" -eq 0
	local v
	v=$(in_root "$ROOT" dpkg-query -W -f '${Version}' dkms)
	check "dkms is bookworm's 3.0.10 ($v)" test "${v#3.0.10}" != "$v"
}

t_install() {
	load_debs
	root_new "$SCEN" headers
	tree_list "$ROOT" >"$RUN_DIR/pre-install.list"
	local out=$RUN_DIR/$SCEN.apt.out k v log t0 t1 f
	check "apt install ./${DEB1##*/} succeeds" apt_deb "$ROOT" "$DEB1" "$out"
	check "dpkg: $PKG install ok installed" \
		test "$(in_root "$ROOT" dpkg-query -W -f '${Status}' "$PKG")" = "install ok installed"
	in_root "$ROOT" dkms status
	for k in "$KOLD" "$KNEW"; do
		check "dkms status: $DKMS_NAME/$V1 installed for $k" dkms_installed "$ROOT" "$V1" "$k"
		v=$(modinfo_field "$ROOT" "$k" version)
		check "modinfo version of $MODULE for $k is $V1 (got '$v')" test "$v" = "$V1"
		v=$(modinfo_field "$ROOT" "$k" vermagic)
		check "$MODULE for $k is built for $k (vermagic '$v')" test "${v%% *}" = "$k"
		v=$(modinfo_field "$ROOT" "$k" cdev_compat_unregister_args)
		check "$MODULE for $k records the probed unregister_chrdev arity 2 (got '$v')" test "$v" = 2
		v=$(modinfo_field "$ROOT" "$k" parm)
		check "$MODULE for $k has no module parameter (got '$v')" test -z "$v"
		f=$( (cd "$ROOT" && find "lib/modules/$k" -name "$MODULE.ko*") | head -n1)
		v=$(in_root "$ROOT" sh -c "xz -dcf '/$f' >/tmp/m.ko && nm /tmp/m.ko" | grep -cw -e init_module -e cleanup_module || true)
		check "$MODULE for $k has no init or exit function ($v found)" test "$v" -eq 0
		check "dkms autoinstall -k $k exits 0" in_root "$ROOT" dkms autoinstall -k "$k"
		# per-kernel build time: make.log starts with the date, its copy is written at the end
		log=$ROOT/var/lib/dkms/$DKMS_NAME/$V1/$k/x86_64/log/make.log
		if [ -f "$log" ]; then
			t0=$(date -d "$(sed -n 2p "$log")" +%s)
			t1=$(stat -c %Y "$log")
			printf 'dkms build of %s for %s: %ss (make.log)\n' "$MODULE" "$k" "$((t1 - t0))" >>"$RUN_DIR/build-times"
		fi
	done
	check "the user package installed no test device module" test -z "$( (cd "$ROOT" && find lib/modules -name "$TMODULE.ko*"))"
	check "sources at /usr/src/$DKMS_NAME-$V1" test -f "$ROOT/usr/src/$DKMS_NAME-$V1/dkms.conf"
	check "vendor fragment at /usr/share/cdev-compat" test -f "$ROOT/usr/share/cdev-compat/cdev-compat.mk"
	check "cdev-compat-migrate --help runs" run_out "$RUN_DIR/$SCEN.migrate.out" in_root "$ROOT" cdev-compat-migrate --help
	check "probe cache /var/cache/cdev-compat is mode 0755, owned by root" \
		test "$(stat -c '%a %u' "$ROOT/var/cache/cdev-compat" "$ROOT/var/cache/cdev-compat/probes" | sort -u)" = "755 0"
	# The test devices, as a test image installs them.
	check "apt install ./${DEB1T##*/} succeeds" apt_deb "$ROOT" "$DEB1T" "$RUN_DIR/$SCEN.apt-test.out"
	for k in "$KOLD" "$KNEW"; do
		check "dkms status: $TDKMS_NAME/$V1 installed for $k" dkms_installed "$ROOT" "$V1" "$k" "$TDKMS_NAME"
		v=$(modinfo_field "$ROOT" "$k" version "$TMODULE")
		check "modinfo version of $TMODULE for $k is $V1 (got '$v')" test "$v" = "$V1"
	done
	check "nothing tried to load a module" no_modload "$ROOT"
	if [ -f "$ROOT/var/lib/dkms/mok.key" ]; then
		note "dkms generated /var/lib/dkms/mok.key on the first build (the signing trap; see t_signing)"
	fi
	# Everything passed: later scenarios start from this state (copy-on-write).
	printf '%s\n' "$RUN_DIR/$SCEN/upper" >"$RUN_DIR/snapshot.ok"
}

# fake_kernel ROOT KVER FROM - a kernel KVER in ROOT whose headers are a copy of FROM's with
# neither unregister_chrdev() arity: no probe variant of that set compiles (boot files as a
# linux-image package leaves them, so dkms treats it like the others).
fake_kernel() {
	local root=$1 kver=$2 from=$3 common
	common=$(sed -n 's#^include /usr/src/\(linux-headers-[^/]*\)/Makefile$#\1#p' "$root/usr/src/linux-headers-$from/Makefile")
	[ -n "$common" ] || fail "cannot find the -common headers of $from"
	cp -a "$root/usr/src/$common" "$root/usr/src/linux-headers-$kver-common"
	cp -a "$root/usr/src/linux-headers-$from" "$root/usr/src/linux-headers-$kver"
	sed -i "s#^include /usr/src/$common/Makefile\$#include /usr/src/linux-headers-$kver-common/Makefile#" \
		"$root/usr/src/linux-headers-$kver/Makefile"
	sed -i "s/\"$from\"/\"$kver\"/" "$root/usr/src/linux-headers-$kver/include/generated/utsrelease.h"
	sed -i 's/^static inline void unregister_chrdev(unsigned int major, const char \*name)$/static inline void unregister_chrdev(unsigned int major, const char *name, int unsupported)/' \
		"$root/usr/src/linux-headers-$kver-common/include/linux/fs.h"
	grep -q 'int unsupported)' "$root/usr/src/linux-headers-$kver-common/include/linux/fs.h" ||
		fail "could not make $kver's headers unsupported"
	mkdir -p "$root/lib/modules/$kver"
	ln -s "/usr/src/linux-headers-$kver" "$root/lib/modules/$kver/build"
	cp "$root/boot/config-$from" "$root/boot/config-$kver"
}

t_unsupported() {
	load_debs
	root_new "$SCEN" headers
	local bad=6.1.0-99-unsupported out=$RUN_DIR/$SCEN.apt.out k log
	fake_kernel "$ROOT" "$bad" "$KOLD"
	pass "kernel $bad: $KOLD's headers with a three-argument unregister_chrdev()"
	check "apt install ./${DEB1##*/} succeeds with an unsupported kernel installed" \
		apt_deb "$ROOT" "$DEB1" "$out"
	check "dpkg: $PKG install ok installed (not half-configured)" \
		test "$(in_root "$ROOT" dpkg-query -W -f '${Status}' "$PKG")" = "install ok installed"
	in_root "$ROOT" dkms status
	for k in "$KOLD" "$KNEW"; do
		check "dkms status: $DKMS_NAME/$V1 installed for $k" dkms_installed "$ROOT" "$V1" "$k"
	done
	check "dkms status: not installed for $bad" not dkms_installed "$ROOT" "$V1" "$bad"
	check "the postinst names the kernel that failed" \
		grep -q "cdev-compat-dkms: ERROR: $DKMS_NAME/$V1 does not build for kernel $bad" "$out"
	log=/var/log/cdev-compat-dkms/$DKMS_NAME-$V1-$bad.make.log
	check "and keeps its make.log at $log" test -s "$ROOT$log"
	check "which says which probe set fits no variant" grep -q 'no variant of "unregister_chrdev" compiles' "$ROOT$log"
	check "the apt output quotes that cause" grep -q 'no variant of "unregister_chrdev" compiles' "$out"
	check "apt install ./${DEB1T##*/} succeeds too" apt_deb "$ROOT" "$DEB1T" "$RUN_DIR/$SCEN.apt-test.out"
	check "dpkg: $TPKG install ok installed" \
		test "$(in_root "$ROOT" dpkg-query -W -f '${Status}' "$TPKG")" = "install ok installed"
	for k in "$KOLD" "$KNEW"; do
		check "dkms status: $TDKMS_NAME/$V1 installed for $k" dkms_installed "$ROOT" "$V1" "$k" "$TDKMS_NAME"
	done
	check "apt sees nothing broken (apt-get check)" in_root "$ROOT" apt-get check
	check "nothing tried to load a module" no_modload "$ROOT"
}

t_upgrade() {
	load_debs
	installed_root "$SCEN"
	local out=$RUN_DIR/$SCEN.apt.out k v building
	# dkms' common.postinst compares the kernels in /boot with `uname -r`; the trap (only the
	# newest kernel rebuilt) shows when the build host runs an older kernel than the image's
	# newest, e.g. a bullseye host. Pretend to be one, whatever this machine runs.
	printf '#!/bin/sh\n# cdev-compat test: a build host with an older kernel\n[ "$1" = -r ] && { echo 5.10.0-30-amd64; exit 0; }\nexec /usr/bin/uname "$@"\n' \
		>"$ROOT/usr/local/bin/uname"
	chmod 755 "$ROOT/usr/local/bin/uname"
	check "apt install ./${DEB2##*/} ./${DEB2T##*/} (upgrade $V1 -> $V2) succeeds" apt_deb "$ROOT" "$DEB2" "$out" "$DEB2T"
	building=$(grep -m1 '^Building for' "$out" | tr -d '\r' || true)
	check "trap reproduced: dkms' own postinst builds only the newest ('$building')" \
		test "$building" = "Building for $KNEW"
	check "this package's postinst built the other kernel" \
		grep -q "^cdev-compat-dkms: building $DKMS_NAME/$V2 for kernel $KOLD" "$out"
	in_root "$ROOT" dkms status
	for k in "$KOLD" "$KNEW"; do
		check "$DKMS_NAME/$V2 installed for $k" dkms_installed "$ROOT" "$V2" "$k"
		check "$TDKMS_NAME/$V2 installed for $k" dkms_installed "$ROOT" "$V2" "$k" "$TDKMS_NAME"
		v=$(modinfo_field "$ROOT" "$k" version)
		check "modinfo version for $k is $V2 (got '$v')" test "$v" = "$V2"
	done
	check "no trace of $V1 in dkms status" not dkms_lists "$ROOT" "$V1"
	check "no trace of $V1 of the test package in dkms status" not dkms_lists "$ROOT" "$V1" "$TDKMS_NAME"
	check "old sources gone" test ! -e "$ROOT/usr/src/$DKMS_NAME-$V1" -a ! -e "$ROOT/usr/src/$TDKMS_NAME-$V1"
	check "one module file per kernel and package" test "$(module_files "$ROOT" | wc -l)" -eq 4
	check "nothing tried to load a module" no_modload "$ROOT"
}

t_remove() {
	load_debs
	installed_root "$SCEN"
	local k
	check "apt remove $TPKG $PKG succeeds" in_root "$ROOT" apt-get remove -y "$TPKG" "$PKG"
	check "no cdev-compat module file under /lib/modules" test -z "$(module_files "$ROOT")"
	for k in "$KOLD" "$KNEW"; do
		check "modules.dep of $k names neither module" \
			not grep -q -e "$MODULE" -e "$TMODULE" "$ROOT/lib/modules/$k/modules.dep"
	done
	check "dkms status knows no $DKMS_NAME" not dkms_lists "$ROOT"
	check "dkms status knows no $TDKMS_NAME" not dkms_lists "$ROOT" "" "$TDKMS_NAME"
	check "nothing tried to load a module" no_modload "$ROOT"
}

t_purge() {
	load_debs
	installed_root "$SCEN"
	local pre=$RUN_DIR/pre-install.list
	[ -f "$RUN_DIR/pre-install.list.$SCEN" ] && pre=$RUN_DIR/pre-install.list.$SCEN
	check "apt purge $TPKG $PKG succeeds" in_root "$ROOT" apt-get purge -y "$TPKG" "$PKG"
	tree_list "$ROOT" >"$RUN_DIR/$SCEN.post.list"
	# dkms' own signing key pair (made by the first build of any module) is dkms' state, not ours.
	diff "$pre" "$RUN_DIR/$SCEN.post.list" | grep '^>' | grep -v -x -e '> var/lib/dkms/mok.key' -e '> var/lib/dkms/mok.pub' \
		>"$RUN_DIR/$SCEN.left" || true
	cat "$RUN_DIR/$SCEN.left"
	check "nothing left under /usr/src, /var/lib/dkms, /var/cache/cdev-compat, /var/log/cdev-compat-dkms, /usr/share/cdev-compat, /usr/libexec/cdev-compat" \
		test ! -s "$RUN_DIR/$SCEN.left"
	check "dpkg forgot both packages" not in_root "$ROOT" dpkg-query -W "$PKG" "$TPKG"
}

t_noheaders() {
	load_debs
	root_new "$SCEN" base
	local out=$RUN_DIR/$SCEN.apt.out out2=$RUN_DIR/$SCEN.headers.out
	check "no kernel headers in this root" test -z "$(find "$ROOT/lib/modules" -maxdepth 2 -name build 2>/dev/null)"
	check "apt install ./${DEB1##*/} succeeds without headers" apt_deb "$ROOT" "$DEB1" "$out"
	check "dkms' misleading 'Building for' line is there (the trap)" grep -q '^Building for' "$out"
	check "the package says clearly that nothing was built" grep -q "$DKMS_NAME was NOT built: no kernel has its headers" "$out"
	check "dpkg: install ok installed" \
		test "$(in_root "$ROOT" dpkg-query -W -f '${Status}' "$PKG")" = "install ok installed"
	check "dkms has the sources (added)" test "$(in_root "$ROOT" dkms status -m "$DKMS_NAME")" = "$DKMS_NAME/$V1: added"
	# Headers arrive later: linux-headers' postinst runs dkms' header_postinst.d hook, i.e.
	# dkms autoinstall for that kernel; with a skip it would fail the headers' installation.
	check "apt install $KOLD_PKG (from the cached archive) succeeds" \
		run_out "$out2" in_root "$ROOT" apt-get install -y --no-download "$KOLD_PKG"
	grep -i -E 'dkms|cdev' "$out2" || true
	check "the kernel hook built and installed $DKMS_NAME for $KOLD" dkms_installed "$ROOT" "$V1" "$KOLD"
	check "dkms autoinstall -k $KOLD exits 0" in_root "$ROOT" dkms autoinstall -k "$KOLD"
	check "nothing tried to load a module" no_modload "$ROOT"
}

t_autopkgtest() {
	load_debs
	root_new "$SCEN" headers
	local out=$RUN_DIR/$SCEN.out k
	# dkms-autopkgtest installs the package by name: serve it from a local repository.
	mkdir -p "$ROOT/srv/cdev-repo"
	cp "$DEB1" "$ROOT/srv/cdev-repo/"
	in_root "$ROOT" sh -c 'cd /srv/cdev-repo && dpkg-scanpackages -m . > Packages'
	echo 'deb [trusted=yes] file:/srv/cdev-repo ./' >"$ROOT/etc/apt/sources.list.d/cdev-repo.list"
	check "local repository readable by apt" in_root "$ROOT" apt-get update \
		-o Dir::Etc::sourcelist=sources.list.d/cdev-repo.list -o Dir::Etc::sourceparts=- \
		-o APT::Get::List-Cleanup=0
	check "dkms-autopkgtest $PKG exits 0" \
		run_out "$out" in_root "$ROOT" AUTOPKGTEST_ARTIFACTS=/tmp /usr/lib/dkms/dkms-autopkgtest "$PKG"
	sed -n '/^I: Summary/,$p' "$out"
	for k in "$KOLD" "$KNEW"; do
		check "dkms-autopkgtest: PASS $k" grep -q "^I: PASS $k\$" "$out"
	done
	check "no FAIL or SKIP in its summary" not grep -q -E '^I: (FAIL|SKIP) ' "$out"
	check "nothing tried to load a module" no_modload "$ROOT"
}

t_vendor() {
	load_debs
	installed_root "$SCEN"
	local src=/usr/src/cdev-vendor-example-1.0 k log before after
	before=$(cd "$ROOT" && find usr/share/cdev-compat -printf '%p %s %T@\n' | sort | sha256sum)
	mkdir -p "$ROOT$src"
	cp -a "$CDEV_TOP/tests/vendor-example/." "$ROOT$src/"
	rm -f "$ROOT$src/README.md"
	check "the vendor Kbuild includes the stable fragment with one line" \
		test "$(grep -c '^include /usr/share/cdev-compat/cdev-compat.mk$' "$ROOT$src/Kbuild")" -eq 1
	check "its dkms.conf declares BUILD_DEPENDS cdev-compat" grep -q '^BUILD_DEPENDS\[0\]="cdev-compat"' "$ROOT$src/dkms.conf"
	check "dkms add cdev-vendor-example/1.0" in_root "$ROOT" dkms add -m cdev-vendor-example -v 1.0
	for k in "$KOLD" "$KNEW"; do
		check "dkms install cdev-vendor-example for $k" in_root "$ROOT" dkms install -m cdev-vendor-example -v 1.0 -k "$k"
		log=$ROOT/var/lib/dkms/cdev-vendor-example/1.0/$k/x86_64/log/make.log
		grep -i 'warning' "$log" || true
		check "$k: no compiler warning in the vendor build" not grep -q 'warning:' "$log"
	done
	# Plain make as an unprivileged user, as a vendor developer would: /usr/share stays read-only.
	mkdir -p "$ROOT/tmp/vendor" "$ROOT/tmp/vhome"
	cp -a "$CDEV_TOP/tests/vendor-example/." "$ROOT/tmp/vendor/"
	chown -R 65534:65534 "$ROOT/tmp/vendor" "$ROOT/tmp/vhome"
	check "make KDIR=.../$KNEW/build as user nobody builds vendor_chardev.ko" in_root "$ROOT" \
		setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp/vhome \
		make -C /tmp/vendor KDIR="/lib/modules/$KNEW/build"
	check "vendor_chardev.ko is there" test -f "$ROOT/tmp/vendor/vendor_chardev.ko"
	check "it was compiled with /usr/share/cdev-compat's wrappers first and force-include on" \
		grep -q -- '-I/usr/share/cdev-compat/wrap .*-DCDEV_COMPAT_FORCE_INCLUDE' "$ROOT/tmp/vendor/.vendor_chardev.o.cmd"
	after=$(cd "$ROOT" && find usr/share/cdev-compat -printf '%p %s %T@\n' | sort | sha256sum)
	check "/usr/share/cdev-compat was not written by the builds" test "$before" = "$after"
	check "dkms autoinstall -k $KOLD exits 0 with both modules" in_root "$ROOT" dkms autoinstall -k "$KOLD"
	# Why neither dkms.conf uses BUILD_EXCLUSIVE_*: on dkms 3.0.10 one skipped module makes
	# autoinstall (the kernel hooks) exit non-zero. Show it with a throwaway module.
	mkdir -p "$ROOT/usr/src/cdev-skip-demo-1.0"
	cat >"$ROOT/usr/src/cdev-skip-demo-1.0/dkms.conf" <<-'EOF'
		PACKAGE_NAME="cdev-skip-demo"
		PACKAGE_VERSION="1.0"
		BUILT_MODULE_NAME[0]="cdev_skip_demo"
		DEST_MODULE_LOCATION[0]="/updates/dkms"
		MAKE[0]="true"
		BUILD_EXCLUSIVE_KERNEL="^0\."
		AUTOINSTALL="yes"
	EOF
	in_root "$ROOT" dkms add -m cdev-skip-demo -v 1.0 >/dev/null
	local rc=0
	in_root "$ROOT" dkms autoinstall -k "$KOLD" || rc=$?
	check "trap reproduced: with a BUILD_EXCLUSIVE skip, dkms autoinstall exits $rc" test "$rc" -ne 0
	in_root "$ROOT" dkms remove -m cdev-skip-demo -v 1.0 --all >/dev/null
	check "nothing tried to load a module" no_modload "$ROOT"
}

t_signing() {
	load_debs
	local k snap_key=no
	if [ -f "$RUN_DIR/snapshot.ok" ] && [ -f "$(cat "$RUN_DIR/snapshot.ok")/var/lib/dkms/mok.key" ]; then
		snap_key=yes
	fi
	note "default install generated /var/lib/dkms/mok.key in the root: $snap_key"
	root_new "$SCEN" headers
	# Image builder, no Secure Boot: disable signing before installing (README.Debian).
	mkdir -p "$ROOT/etc/dkms/framework.conf.d"
	echo 'sign_file=/nonexistent/dkms-signing-disabled' >"$ROOT/etc/dkms/framework.conf.d/cdev-compat-image.conf"
	check "apt install with signing disabled succeeds" apt_deb "$ROOT" "$DEB1" "$RUN_DIR/$SCEN.apt.out"
	for k in "$KOLD" "$KNEW"; do
		check "installed for $k" dkms_installed "$ROOT" "$V1" "$k"
		check "$k: module not signed" test -z "$(modinfo_field "$ROOT" "$k" signer)"
	done
	check "no private key generated in the image" test ! -e "$ROOT/var/lib/dkms/mok.key"
	# Image builder with Secure Boot: a key that exists only during the build (/run is a tmpfs,
	# not part of the image tree).
	mkdir -p "$ROOT/run/cdev-keys"
	in_root "$ROOT" openssl req -new -x509 -nodes -days 1 -subj '/CN=cdev-compat image key' \
		-newkey rsa:2048 -keyout /run/cdev-keys/mok.key -outform DER -out /run/cdev-keys/mok.der 2>/dev/null
	printf 'mok_signing_key=/run/cdev-keys/mok.key\nmok_certificate=/run/cdev-keys/mok.der\n' \
		>"$ROOT/etc/dkms/framework.conf.d/cdev-compat-image.conf"
	check "rebuild for $KOLD with the build-time key" \
		run_out "$RUN_DIR/$SCEN.build.out" in_root "$ROOT" dkms build -m "$DKMS_NAME" -v "$V1" -k "$KOLD" --force
	grep -E '^(Sign|Signing|Public)' "$RUN_DIR/$SCEN.build.out" || true
	check "reinstall for $KOLD" \
		run_out "$RUN_DIR/$SCEN.install.out" in_root "$ROOT" dkms install -m "$DKMS_NAME" -v "$V1" -k "$KOLD" --force
	check "$KOLD: module signed by the build-time key" \
		test "$(modinfo_field "$ROOT" "$KOLD" signer)" = "cdev-compat image key"
	rm -f "$ROOT/etc/dkms/framework.conf.d/cdev-compat-image.conf"
	check "no private key in the image tree" test -z "$(find "$RUN_DIR/$SCEN/upper" -name mok.key)"
	check "nothing tried to load a module" no_modload "$ROOT"
}

t_probefail() {
	load_debs
	installed_root "$SCEN"
	local out=$RUN_DIR/$SCEN.out rc=0 log plog p
	# Break every variant of one probe set: no variant compiles for this kernel.
	for p in "$ROOT/usr/src/$DKMS_NAME-$V1"/compat/probes/unregister_chrdev_*arg.c; do
		printf '\n#error "cdev-compat package test: probe broken on purpose"\n' >>"$p"
	done
	in_root "$ROOT" dkms build -m "$DKMS_NAME" -v "$V1" -k "$KOLD" --force >"$out" 2>&1 || rc=$?
	cat "$out"
	check "dkms build fails (status $rc)" test "$rc" -ne 0
	check "dkms names make.log" grep -q "/var/lib/dkms/$DKMS_NAME/$V1/build/make.log" "$out"
	log=$ROOT/var/lib/dkms/$DKMS_NAME/$V1/build/make.log
	grep -E 'cdev-compat' "$log" || true
	check "make.log says the probes failed" grep -q 'cdev-compat-probes: error' "$log"
	plog=$(grep -o 'log: /[^ ]*\.log' "$log" | head -n1 | sed 's/^log: //')
	check "make.log names a probe log ($plog)" test -n "$plog"
	check "that log exists in the root" test -f "$ROOT$plog"
	check "and it shows the compiler error" grep -q 'probe broken on purpose' "$ROOT$plog"
}

# --- the matrix package ------------------------------------------------------------------------

t_matrix() {
	load_debs
	root_new "$SCEN" base
	local out=$RUN_DIR/$SCEN.apt.out m=/usr/share/cdev-compat-matrix v rc=0 f cache
	# Its dependencies come from the mirror each time; keep what apt downloads between runs.
	cache=$CHROOT_DIR/matrix-archives
	mkdir -p "$cache"
	mount --bind "$cache" "$ROOT/var/cache/apt/archives"
	CHROOT_MOUNTS+=("$ROOT/var/cache/apt/archives")
	check "no cdev-compat tree in the root" test ! -e "$ROOT/work" -a ! -e "$ROOT$m"
	in_root "$ROOT" apt-get update >"$RUN_DIR/$SCEN.update.out" 2>&1 || fail "apt-get update in the root"
	check "apt install ./${DEB1M##*/} succeeds, its dependencies all from bookworm" apt_deb "$ROOT" "$DEB1M" "$out"
	check "dpkg: cdev-compat-matrix install ok installed" \
		test "$(in_root "$ROOT" dpkg-query -W -f '${Status}' cdev-compat-matrix)" = "install ok installed"
	check "neither DKMS package came with it (the host gets no cdev-compat module)" \
		not in_root "$ROOT" dpkg-query -W cdev-compat-dkms cdev-compat-test-dkms
	v=$(in_root "$ROOT" cdev-compat-matrix --version)
	check "cdev-compat-matrix --version from /usr/bin: '$v'" test "$v" = "cdev-compat-matrix $(dpkg-deb -f "$DEB1M" Version)"
	check "--help runs as an unprivileged user" in_root "$ROOT" setpriv --reuid=65534 --regid=65534 --clear-groups \
		cdev-compat-matrix --help
	f=$ROOT/usr/share/man/man1/cdev-compat-matrix.1.gz
	check "the man page is installed" test -f "$f"
	in_root "$ROOT" cdev-compat-matrix --help | grep -oE -- '--[a-z-]+' | sort -u >"$RUN_DIR/$SCEN.help-options"
	zcat "$f" | grep -oE -- '\\-\\-[a-z\\-]+' | sed 's/\\//g' | sort -u >"$RUN_DIR/$SCEN.man-options"
	check "the man page names every option of --help ($(wc -l <"$RUN_DIR/$SCEN.help-options") options) and no other" \
		cmp "$RUN_DIR/$SCEN.help-options" "$RUN_DIR/$SCEN.man-options"
	in_root "$ROOT" cdev-compat-matrix --list-kernels >"$RUN_DIR/$SCEN.kernels.out" || fail "--list-kernels failed"
	check "--list-kernels lists the one-arg kernels" grep -q '^| onearg-nodebug |' "$RUN_DIR/$SCEN.kernels.out"
	in_root "$ROOT" cdev-compat-matrix --module /no/such/dir >"$RUN_DIR/$SCEN.bad.out" 2>&1 || rc=$?
	cat "$RUN_DIR/$SCEN.bad.out"
	check "a missing module directory: exit 2, named" \
		sh -c "[ $rc -eq 2 ] && grep -q 'cdev-compat-matrix: cannot run: --module /no/such/dir: no such directory' '$RUN_DIR/$SCEN.bad.out'"
	# What a run does first when it has no packages yet (tests/matrix/lib/inputs.sh): make deb in the
	# installed tree, into the command's cache.
	check "make deb from $m, as an installed run does it (lintian included)" in_root "$ROOT" \
		env BUILD_DIR=/var/cache/cdev-compat-matrix/build make -C "$m" deb
	f=$ROOT/var/cache/cdev-compat-matrix/build/${DEB1##*/}
	check "the rebuilt ${DEB1##*/} is there" test -f "$f"
	# matrix_deb_content_sha (tests/matrix/lib/inputs.sh): names, modes, owners, sizes and contents
	# of the data and control members, what the images are keyed on
	check "... and has the content of the one built from the checkout (so the same images)" \
		test "$(matrix_deb_content_sha "$f")" = "$(matrix_deb_content_sha "$DEB1")"
	check "... and so has the test package" \
		test "$(matrix_deb_content_sha "${f%/*}/${DEB1T##*/}")" = "$(matrix_deb_content_sha "$DEB1T")"
	check "the runs left $m as installed (dpkg --verify)" test -z "$(in_root "$ROOT" dpkg --verify cdev-compat-matrix)"
	# purge: the caches and the apt source and pin --setup writes (marked files only)
	for f in sources.list.d/cdev-compat-bookworm-backports.sources preferences.d/cdev-compat-bookworm-backports.pref; do
		printf '# Written by cdev-compat tests/matrix/host-setup.sh (test)\n' >"$ROOT/etc/apt/$f"
	done
	printf '# a file of the admin\n' >"$ROOT/etc/apt/sources.list.d/cdev-compat-unrelated.sources"
	check "apt purge cdev-compat-matrix succeeds" in_root "$ROOT" apt-get purge -y cdev-compat-matrix
	check "purge removed /var/cache/cdev-compat-matrix" test ! -e "$ROOT/var/cache/cdev-compat-matrix"
	check "purge removed the marked apt source and pin" \
		test ! -e "$ROOT/etc/apt/sources.list.d/cdev-compat-bookworm-backports.sources" -a \
		! -e "$ROOT/etc/apt/preferences.d/cdev-compat-bookworm-backports.pref"
	check "and kept the admin's own file" test -f "$ROOT/etc/apt/sources.list.d/cdev-compat-unrelated.sources"
	check "nothing of it is left under $m or /usr/bin" test ! -e "$ROOT$m" -a ! -e "$ROOT/usr/bin/cdev-compat-matrix"
}
