# shellcheck shell=bash
# What every kernel of a run shares: the project's .debs, the one-arg kernel's .debs, and the
# accelerator (KVM only when a probe boot passes, else TCG).
# Sets: DEBS (array: cdev-compat-dkms, then cdev-compat-test-dkms when `make deb` built it),
# DEB_VERSION, DEB_SHA; KDEB_IMAGE, KDEB_HEADERS, KDEB_SHA (per one-arg kernel); ACCEL (tcg|kvm|probe).

# matrix_newest_deb NAME - the newest $BUILD_DIR/NAME_*_all.deb, or nothing (also when there is no build/ yet).
matrix_newest_deb() {
	[ -d "$BUILD_DIR" ] || return 0
	find "$BUILD_DIR" -maxdepth 1 -name "$1"'_*_all.deb' -printf '%T@ %p\n' |
		sort -n | tail -n1 | cut -d' ' -f2-
}

# matrix_deb_content_sha DEB - a hash of what DEB installs and runs (names, modes, owners, sizes and
# contents of its data and control members), not of its bytes: `make deb` dates generated
# files by the build, so two builds of the same tree differ only in mtimes, and the images
# (keyed on this) are not rebuilt for that.
matrix_deb_content_sha() {
	local t
	for t in --ctrl-tarfile --fsys-tarfile; do
		dpkg-deb "$t" "$1" | tar -tv | awk '{ $4 = ""; $5 = ""; print }'
		dpkg-deb "$t" "$1" | tar -xO
	done | sha256sum | cut -d' ' -f1
}

# matrix_find_debs - the package(s) the images install. Today's single cdev-compat-dkms, or,
# once the package is split (issue 13), cdev-compat-dkms plus cdev-compat-test-dkms (the test
# devices) of the same version. CDEV_MATRIX_DEB=PATH names the user package (its test package
# is looked for beside it), CDEV_MATRIX_DEB=standin uses tests/matrix/standin.
matrix_find_debs() {
	local deb test='' d
	case "${CDEV_MATRIX_DEB:-}" in
	standin) deb=$("$CDEV_TOP/tests/matrix/make-standin-deb.sh") ;;
	"")
		deb=$(matrix_newest_deb cdev-compat-dkms)
		if [ -z "$deb" ]; then
			matrix_say "no $BUILD_DIR/cdev-compat-dkms_*_all.deb: running make deb"
			make -C "$CDEV_TOP" deb || die "make deb failed"
			deb=$(matrix_newest_deb cdev-compat-dkms)
		fi
		;;
	*) deb=$CDEV_MATRIX_DEB ;;
	esac
	if [ -z "$deb" ] || [ ! -f "$deb" ]; then
		die "no cdev-compat-dkms .deb (make deb, or CDEV_MATRIX_DEB=PATH|standin)"
	fi
	d=$(dpkg-deb -f "$deb" Package)
	[ "$d" = cdev-compat-dkms ] || die "$deb is package '$d', not cdev-compat-dkms"
	DEB_VERSION=$(dpkg-deb -f "$deb" Version)
	# The test package of the same version, beside it (issue 13's split); none before the split.
	d=$(dirname "$deb")/cdev-compat-test-dkms_${DEB_VERSION}_all.deb
	[ ! -f "$d" ] || test=$d
	DEBS=("$deb")
	[ -z "$test" ] || DEBS+=("$test")
	DEB_SHA=$(for d in "${DEBS[@]}"; do matrix_deb_content_sha "$d"; done | sha256sum | cut -d' ' -f1)
	matrix_say "packages: ${DEBS[*]##*/} ($DEB_VERSION, sha256 ${DEB_SHA:0:12})"
}

# matrix_find_kernel_debs K - the .debs of a one-arg kernel built here: linux-image-*.deb and
# linux-headers-*.deb of `kernel/build-kernel.sh --base BASE FLAVOUR` (K's description; a cache
# hit takes a fraction of a second), for onearg those in CDEV_MATRIX_KERNEL_DIR if it is set.
# Sets KDEB_IMAGE[K], KDEB_HEADERS[K], KDEB_SHA[K]; without them K's row fails.
declare -gA KDEB_IMAGE=() KDEB_HEADERS=() KDEB_SHA=()
# shellcheck disable=SC2034 # KDEB_*: its results, read by lib/image.sh and run-matrix.sh
matrix_find_kernel_debs() {
	local k=$1 base flavour dir image headers
	base=$(kernel_field "$k" base)
	flavour=$(kernel_field "$k" flavour)
	dir=$BUILD_DIR/kernel/$base-$flavour
	if [ "$k" = onearg ] && [ -n "${CDEV_MATRIX_KERNEL_DIR:-}" ]; then
		dir=$CDEV_MATRIX_KERNEL_DIR
	else
		matrix_say "$k kernel: kernel/build-kernel.sh --base $base $flavour (cached by its inputs)"
		"$CDEV_TOP/kernel/build-kernel.sh" --base "$base" "$flavour" >"$MATRIX_DIR/kernel-$base-$flavour.log" 2>&1 ||
			matrix_say "kernel/build-kernel.sh --base $base $flavour failed (log: $MATRIX_DIR/kernel-$base-$flavour.log)"
	fi
	image=$(find "$dir" -maxdepth 1 -name 'linux-image-*.deb' ! -name '*-dbg_*' 2>/dev/null |
		sort -V | tail -n1)
	headers=$(find "$dir" -maxdepth 1 -name 'linux-headers-*.deb' 2>/dev/null | sort -V | tail -n1)
	if [ -n "$image" ] && [ -n "$headers" ]; then
		KDEB_IMAGE[$k]=$image KDEB_HEADERS[$k]=$headers
		KDEB_SHA[$k]=$(cat "$image" "$headers" | sha256sum | cut -d' ' -f1)
		matrix_say "$k kernel: ${image##*/} ${headers##*/}"
	else
		matrix_say "$k kernel: no .debs in $dir (the $k row will fail)"
	fi
}

# matrix_pick_accel - KVM only if the CPU exposes it and a short probe boot succeeds (done at
# the first boot: ACCEL=probe); otherwise TCG. CDEV_MATRIX_ACCEL=tcg|kvm skips the probe.
matrix_pick_accel() {
	if [ -n "${CDEV_MATRIX_ACCEL:-}" ]; then
		ACCEL=$CDEV_MATRIX_ACCEL
		matrix_say "accel: $ACCEL (CDEV_MATRIX_ACCEL)"
	elif [ ! -w /dev/kvm ] || ! grep -qwE 'vmx|svm' /proc/cpuinfo; then
		ACCEL=tcg
		matrix_say "accel: tcg (no usable /dev/kvm or no vmx/svm in /proc/cpuinfo)"
	else
		ACCEL=probe
	fi
}

# matrix_probe_kvm VMLINUZ - decide ACCEL=kvm|tcg with a 20 s boot to a kernel panic. The
# answer is kept for this host boot ($CDEV_COMPAT_CACHE/matrix/accel.<boot_id>).
matrix_probe_kvm() {
	local cache rc=0 log=$MATRIX_DIR/kvm-probe.log
	cache=$CDEV_COMPAT_CACHE/matrix/accel.$(cat /proc/sys/kernel/random/boot_id)
	if [ -s "$cache" ]; then
		ACCEL=$(cat "$cache")
		matrix_say "accel: $ACCEL (probed earlier this host boot)"
		return 0
	fi
	timeout --kill-after=5 20 qemu-system-x86_64 -machine q35 -accel kvm -cpu host -m 256 \
		-nodefaults -display none -no-reboot -serial "file:$log" -kernel "$1" \
		-append "console=ttyS0 panic=-1 rdinit=/cdev-no-such-init" </dev/null >/dev/null 2>&1 || rc=$?
	if [ "$rc" -eq 0 ] && grep -qE 'Kernel panic|No working init' "$log"; then
		ACCEL=kvm
	else
		ACCEL=tcg
	fi
	echo "$ACCEL" >"$cache"
	matrix_say "accel: $ACCEL (KVM probe boot: exit $rc)"
}
