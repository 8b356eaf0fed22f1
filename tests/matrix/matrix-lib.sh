# shellcheck shell=bash
# Functions of tests/matrix/run-matrix.sh (sourced after scripts/lib.sh): target kernels'
# apt sources and package resolution, image build and cache, QEMU boot, KTAP parsing, report.
# Uses the caller's globals: T_RUN, MATRIX_DIR, kernels (array), DEB*, KDEB*, ACCEL.
# shellcheck disable=SC2154

# ---------------------------------------------------------------------------------------------
# progress

PHASES=()

# now_s - seconds since the run started, one decimal.
now_s() { elapsed "$T_RUN"; }

say() { printf 'matrix: [%6ss] %s\n' "$(now_s)" "$*"; }

phase() {
	PHASE_T0=$(date +%s.%N)
	say "phase $1 ..."
}

phase_done() {
	local s
	s=$(elapsed "$PHASE_T0")
	PHASES+=("$1=$s")
	say "phase $1 done in ${s}s"
}

# step KERNEL STEP MESSAGE - one progress line; STEP_T0 is the step's start.
step() {
	local k=$1 st=$2
	shift 2
	say "$k: $st: $* (${STEP_SECS:-0}s)"
}

# ---------------------------------------------------------------------------------------------
# inputs

matrix_find_deb() {
	local d
	case "${CDEV_MATRIX_DEB:-}" in
	standin)
		DEB=$("$CDEV_TOP/tests/matrix/make-standin-deb.sh")
		;;
	"")
		DEB=$(find "$BUILD_DIR" -maxdepth 1 -name 'cdev-compat-dkms_*_all.deb' -printf '%T@ %p\n' |
			sort -n | tail -n1 | cut -d' ' -f2-)
		if [ -z "$DEB" ]; then
			say "no build/cdev-compat-dkms_*_all.deb: running make deb"
			make -C "$CDEV_TOP" deb || die "make deb failed"
			DEB=$(find "$BUILD_DIR" -maxdepth 1 -name 'cdev-compat-dkms_*_all.deb' -printf '%T@ %p\n' |
				sort -n | tail -n1 | cut -d' ' -f2-)
		fi
		;;
	*)
		DEB=$CDEV_MATRIX_DEB
		;;
	esac
	if [ -z "$DEB" ] || [ ! -f "$DEB" ]; then
		die "no cdev-compat-dkms .deb (make deb, or CDEV_MATRIX_DEB=PATH|standin)"
	fi
	d=$(dpkg-deb -f "$DEB" Package)
	[ "$d" = cdev-compat-dkms ] || die "$DEB is package '$d', not cdev-compat-dkms"
	DEB_VERSION=$(dpkg-deb -f "$DEB" Version)
	DEB_SHA=$(sha256sum "$DEB" | cut -d' ' -f1)
	say "package: $DEB ($DEB_VERSION, sha256 ${DEB_SHA:0:12})"
}

# The one-arg kernel: linux-image-*.deb and linux-headers-*.deb from `make kernel`.
matrix_find_kernel_debs() {
	local dir=${CDEV_MATRIX_KERNEL_DIR:-$BUILD_DIR/kernel}
	find_kdebs() {
		KDEB_IMAGE=$(find "$dir" -maxdepth 1 -name 'linux-image-*.deb' ! -name '*-dbg_*' 2>/dev/null |
			sort -V | tail -n1)
		KDEB_HEADERS=$(find "$dir" -maxdepth 1 -name 'linux-headers-*.deb' 2>/dev/null | sort -V | tail -n1)
		[ -n "$KDEB_IMAGE" ] && [ -n "$KDEB_HEADERS" ]
	}
	if ! find_kdebs && [ -z "${CDEV_MATRIX_KERNEL_DIR:-}" ]; then
		say "no one-arg kernel .debs in $dir: running make kernel"
		make -C "$CDEV_TOP" kernel || say "make kernel failed"
	fi
	if find_kdebs; then
		KDEB_SHA=$(cat "$KDEB_IMAGE" "$KDEB_HEADERS" | sha256sum | cut -d' ' -f1)
		say "one-arg kernel: ${KDEB_IMAGE##*/} ${KDEB_HEADERS##*/}"
	else
		KDEB_IMAGE='' KDEB_HEADERS='' KDEB_SHA=''
		say "one-arg kernel: no .debs in $dir (the onearg row will fail)"
	fi
}

# The test side of the guest, appended to each image at boot as a second cpio: runner, tests,
# systemd units, exit helper. Changing a test never rebuilds an image.
matrix_build_overlay() {
	local root=$MATRIX_DIR/overlay/root g=$CDEV_TOP/tests/guest c d
	rm -rf "$MATRIX_DIR/overlay"
	mkdir -p "$root/usr/lib/cdev-compat/bin" "$root/usr/lib/systemd/system"
	cp -r "$g" "$root/usr/lib/cdev-compat/guest"
	cp "$g"/systemd/cdev-matrix.* "$root/usr/lib/systemd/system/"
	gcc -static -Os -Wall -Wextra -Werror -o "$root/usr/lib/cdev-compat/bin/cdev-debug-exit" \
		"$g/debug-exit.c" || die "cannot build the static exit helper (libc6-dev?)"
	# Userspace programs of the guest tests (tests/guest/progs/NAME.c -> bin/NAME), static so one
	# binary serves every guest release.
	for c in "$g"/progs/*.c; do
		[ -e "$c" ] || continue
		gcc -static -O2 -Wall -Wextra -Werror -pthread -I "$CDEV_TOP/shim" \
			-o "$root/usr/lib/cdev-compat/bin/$(basename "$c" .c)" "$c" ||
			die "cannot build ${c#"$CDEV_TOP"/}"
	done
	# Test data: a .xz stream for xz_dec_test (CRC32 check: the kernel's decoder has no CRC64),
	# with the CRC32 and size of what it decodes to (the gzip trailer holds the CRC32).
	d=$root/usr/lib/cdev-compat/guest/data
	mkdir -p "$d"
	seq 1 50000 >"$d/xz-sample"
	xz -0 --check=crc32 -c "$d/xz-sample" >"$d/xz-sample.xz" || die "xz failed"
	gzip -c "$d/xz-sample" | tail -c 8 | od -An -tx4 -N4 | tr -d ' \n' | tr a-f A-F >"$d/xz-sample.crc32"
	stat -c %s "$d/xz-sample" >"$d/xz-sample.size"
	rm "$d/xz-sample"
	find "$root" -type d -exec chmod 0755 {} +
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$MATRIX_DIR/overlay/overlay.cpio" ||
		die "cannot build the test overlay cpio"
	say "guest tests: $(find "$g/tests.d" -name '[0-9][0-9]-*.sh' | wc -l) scripts," \
		"$(find "$root/usr/lib/cdev-compat/bin" -type f | wc -l) programs in overlay.cpio"
}

# KVM only if the CPU exposes it and a short probe boot succeeds; otherwise TCG. The probe's
# answer is kept for this host boot ($CDEV_COMPAT_CACHE/matrix/accel.<boot_id>).
matrix_pick_accel() {
	if [ -n "${CDEV_MATRIX_ACCEL:-}" ]; then
		ACCEL=$CDEV_MATRIX_ACCEL
	elif [ ! -w /dev/kvm ] || ! grep -qwE 'vmx|svm' /proc/cpuinfo; then
		ACCEL=tcg
		say "accel: tcg (no usable /dev/kvm or no vmx/svm in /proc/cpuinfo)"
		return 0
	else
		ACCEL=probe
	fi
	[ "$ACCEL" = probe ] || say "accel: $ACCEL (CDEV_MATRIX_ACCEL)"
}

# matrix_probe_kvm VMLINUZ - decide ACCEL=kvm|tcg with a 20 s boot to a kernel panic.
matrix_probe_kvm() {
	local cache rc=0 log=$MATRIX_DIR/kvm-probe.log
	cache=$CDEV_COMPAT_CACHE/matrix/accel.$(cat /proc/sys/kernel/random/boot_id)
	if [ -s "$cache" ]; then
		ACCEL=$(cat "$cache")
		say "accel: $ACCEL (probed earlier this host boot)"
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
	say "accel: $ACCEL (KVM probe boot: exit $rc)"
}

# ---------------------------------------------------------------------------------------------
# per kernel: sources, resolution, image

# matrix_sources K DIR - write DIR/etc/apt/sources.list.d/mkosi.sources (and preferences) for K
# from the host's mirror. mkosi uses it verbatim instead of its own list.
matrix_sources() {
	local k=$1 dir=$2 mirror security rel suites
	mirror=$(apt_mirror_debian)
	security=$(apt_mirror_security 2>/dev/null) || security=
	case "$k" in
	bullseye) rel=bullseye suites="bullseye bullseye-updates" ;;
	bookworm | onearg) rel=bookworm suites="bookworm bookworm-updates" ;;
	trixie) rel=trixie suites="trixie trixie-updates" ;;
	newest) rel=trixie suites="trixie trixie-updates trixie-backports" ;;
	esac
	rm -rf "$dir"
	mkdir -p "$dir/etc/apt/sources.list.d" "$dir/etc/apt/preferences.d"
	{
		echo "# Generated by tests/matrix/run-matrix.sh from the host's apt configuration."
		printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\n' "$mirror" "$suites"
		printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
		if [ -n "$security" ]; then
			printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n' "$security" "$rel"
			printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
		fi
	} >"$dir/etc/apt/sources.list.d/mkosi.sources"
	if [ "$k" = newest ]; then
		cat >"$dir/etc/apt/preferences.d/cdev-matrix-newest.pref" <<EOF
# The newest kernel and what it needs (linux-base, kbuild, ...) from trixie-backports.
Package: linux-* src:linux src:linux-signed-amd64 src:linux-base
Pin: release n=trixie-backports
Pin-Priority: 500
EOF
	fi
}

# matrix_apt K DIR ARGS... - apt-get/apt-cache against K's sources with private state.
matrix_apt() {
	local k=$1 dir=$2 cmd=$3 st=$CDEV_COMPAT_CACHE/matrix/apt/$1
	shift 3
	mkdir -p "$st/lists/partial" "$st/cache/archives/partial"
	touch "$st/status"
	"$cmd" -o "Dir::Etc=$dir/etc/apt" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" \
		-o "Dir::State::status=$st/status" -o "Dir::Cache=$st/cache" -o Debug::NoLocking=1 \
		-o Dir::Cache::pkgcache=pkgcache.bin -o Dir::Cache::srcpkgcache=srcpkgcache.bin \
		-o APT::Architecture=amd64 -o Acquire::Languages=none -o APT::Get::List-Cleanup=0 "$@"
}

# matrix_resolve K DIR - set KPKGS (packages to install), KPKG_DIRS (local package dirs),
# KRESOLVED (what was resolved, printed and recorded).
matrix_resolve() {
	local k=$1 dir=$2 cand dep abi hdr
	KPKGS=() KPKG_DIRS=()
	if [ "$k" = onearg ]; then
		[ -n "$KDEB_IMAGE" ] || { echo "no one-arg kernel .debs (make kernel)"; return 1; }
		rm -rf "$MATRIX_DIR/$k/kdebs"
		mkdir -p "$MATRIX_DIR/$k/kdebs"
		cp "$KDEB_IMAGE" "$KDEB_HEADERS" "$MATRIX_DIR/$k/kdebs/"
		KPKGS=("$(dpkg-deb -f "$KDEB_IMAGE" Package)" "$(dpkg-deb -f "$KDEB_HEADERS" Package)")
		KPKG_DIRS=("$MATRIX_DIR/$k/kdebs")
		KVERSION=$(dpkg-deb -f "$KDEB_IMAGE" Version)
		KRESOLVED="${KPKGS[0]} $KVERSION (local, sha256 ${KDEB_SHA:0:12})"
		return 0
	fi
	# Refresh the indices unless this same source list was refreshed within
	# CDEV_MATRIX_APT_MAX_AGE seconds (default 6 h): warm runs skip the download.
	local stamp age
	stamp=$CDEV_COMPAT_CACHE/matrix/apt/$k/updated.$(find "$dir" -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)
	age=$(($(date +%s) - $(stat -c %Y "$stamp" 2>/dev/null || echo 0)))
	if [ "$age" -gt "${CDEV_MATRIX_APT_MAX_AGE:-21600}" ]; then
		rm -f "$CDEV_COMPAT_CACHE/matrix/apt/$k"/updated.*
		matrix_apt "$k" "$dir" apt-get -qq update >"$MATRIX_DIR/$k/apt-update.log" 2>&1 ||
			{ echo "apt-get update failed: $(tail -n3 "$MATRIX_DIR/$k/apt-update.log")"; return 1; }
		touch "$stamp"
	elif [ -s "$stamp.resolved" ]; then
		# Same indices as the last resolution: reuse its answer.
		read -r abi hdr cand <"$stamp.resolved"
		KPKGS=("$abi" "$hdr")
		KRESOLVED="$abi $cand (indices of $(date -d "@$(stat -c %Y "$stamp")" +%H:%M))"
		KVERSION=$cand
		return 0
	fi
	cand=$(matrix_apt "$k" "$dir" apt-cache policy linux-image-cloud-amd64 | awk '/Candidate:/ { print $2 }')
	if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
		echo "no linux-image-cloud-amd64 in $k's suites"
		return 1
	fi
	dep=$(matrix_apt "$k" "$dir" apt-cache show "linux-image-cloud-amd64=$cand" | awk '/^Depends:/ { print; exit }')
	# Pin the ABI package (the meta package's .deb may be missing from a mirror).
	abi=$(grep -oE 'linux-image-[0-9][^ ,]*' <<<"$dep" | head -n1)
	[ -n "$abi" ] || { echo "cannot find the ABI package in '$dep'"; return 1; }
	hdr=linux-headers-${abi#linux-image-}
	matrix_apt "$k" "$dir" apt-cache show "$hdr=$cand" >/dev/null 2>&1 ||
		{ echo "no $hdr=$cand in $k's suites"; return 1; }
	KPKGS=("$abi" "$hdr")
	KRESOLVED="$abi $cand"
	KVERSION=$cand
	printf '%s %s %s\n' "$abi" "$hdr" "$cand" >"$stamp.resolved"
	if [ "$k" = newest ] && [ "${cand%%.*}" != 7 ]; then
		KRESOLVED="$KRESOLVED (no 7.x in trixie-backports: newest there)"
	fi
}

# matrix_linux_source K DIR - the Debian linux-source .deb of K's kernel version (KVERSION),
# downloaded with K's apt sources into $CDEV_COMPAT_CACHE/linux-source/debs/ once; prints it.
matrix_linux_source() {
	local k=$1 dir=$2 ver=$KVERSION pkg debs=$CDEV_COMPAT_CACHE/linux-source/debs f
	pkg=linux-source-$(grep -oE '^[0-9]+\.[0-9]+' <<<"$ver")
	# (apt-get download spells an epoch ':' as %3a; Debian's kernel versions have none.)
	f=$debs/${pkg}_${ver}_all.deb
	if [ ! -s "$f" ]; then
		mkdir -p "$debs"
		if ! (cd "$debs" && matrix_apt "$k" "$dir" apt-get -q -o APT::Sandbox::User=root \
			download "$pkg=$ver") >"$MATRIX_DIR/$k/linux-source.log" 2>&1 || [ ! -s "$f" ]; then
			echo "cannot download $pkg=$ver: $(tail -n 2 "$MATRIX_DIR/$k/linux-source.log")"
			return 1
		fi
	fi
	printf '%s\n' "$f"
}

# matrix_stage_legacy K - stage the real legacy drivers for K's image in MATRIX_DIR/K/legacy
# (tests/legacy/stage-drivers.sh): from the linux-source of K's own kernel; for onearg, from
# the patched tree its kernel was built from. Both 6.1 kernels also get the other arity's
# source: bookworm the one-arg port, onearg Debian's unpatched linux-source-6.1.
matrix_stage_legacy() {
	local k=$1 dir=$MATRIX_DIR/$1 deb tree args=()
	if [ "$k" = onearg ] || [ "$k" = bookworm ]; then
		tree=$("$CDEV_TOP/kernel/apply-series.sh" | tail -n1) || { echo "kernel/apply-series.sh failed"; return 1; }
		[ -d "$tree" ] || { echo "kernel/apply-series.sh gave no tree"; return 1; }
	fi
	if [ "$k" = onearg ]; then
		need_pkgs /usr/src/linux-source-6.1.tar.xz:linux-source-6.1
		args=("unmodified=$tree" "other-arity=/usr/src/linux-source-6.1.tar.xz")
	else
		deb=$(matrix_linux_source "$k" "$dir/pkgmngr") || { echo "$deb"; return 1; }
		args=("unmodified=$deb")
		[ "$k" != bookworm ] || args+=("other-arity=$tree")
	fi
	"$CDEV_TOP/tests/legacy/stage-drivers.sh" "$dir/legacy" "${args[@]}"
}

# matrix_key K DIR - the image cache key: config, generated sources, resolved packages, .debs.
matrix_key() {
	local k=$1 dir=$2 f
	{
		mkosi --version
		for f in "$CDEV_TOP/mkosi.conf" "$CDEV_TOP/mkosi.profiles/$k.conf" "$CDEV_TOP/mkosi.postinst.chroot" \
			"$CDEV_TOP"/mkosi.conf.d/*; do
			[ -f "$f" ] || continue
			printf '== %s\n' "${f#"$CDEV_TOP"/}"
			cat "$f"
		done
		find "$dir" -type f | LC_ALL=C sort | xargs cat
		printf 'packages %s\n' "${KPKGS[*]}"
		(cd "$MATRIX_DIR/$k/legacy" && find . -type f | LC_ALL=C sort | xargs sha256sum)
		printf 'deb %s\n' "$DEB_SHA"
		[ "$k" != onearg ] || printf 'kernel-debs %s\n' "$KDEB_SHA"
	} | sha256sum | cut -c1-16
}

# matrix_build_image K KDIR IMGDIR - mkosi build into KDIR/mkosi.output, then into the cache.
matrix_build_image() {
	local k=$1 kdir=$2 img=$3 out=$2/mkosi.output mc=$CDEV_COMPAT_CACHE/matrix/mkosi/$1 p cpio vmlinuz
	local args=()
	rm -rf "$out" "$kdir/debs"
	mkdir -p "$out" "$kdir/debs" "$mc/incremental" "$mc/packages"
	cp "$DEB" "$kdir/debs/"
	args=(-C "$CDEV_TOP" --profile "$k" --force
		--package-manager-tree "$kdir/pkgmngr"
		--output-dir "$out" --cache-dir "$mc/incremental" --package-cache-dir "$mc/packages"
		--incremental=yes --build-sources "$kdir/debs:cdev-debs,$kdir/legacy:cdev-legacy")
	for p in "${KPKGS[@]}"; do args+=(--package "$p"); done
	for p in "${KPKG_DIRS[@]}"; do args+=(--package-directory "$p"); done
	printf '+ mkosi %s build\n' "${args[*]}" >"$kdir/mkosi.log"
	if ! mkosi "${args[@]}" build >>"$kdir/mkosi.log" 2>&1; then
		echo "mkosi build failed (log: $kdir/mkosi.log):"
		grep -v '^mkosi.postinst: apt: ' "$kdir/mkosi.log" | tail -n 25 | sed "s/^/    | /"
		return 1
	fi
	cpio=$(find "$out" -maxdepth 1 -name '*.cpio' | head -n1)
	vmlinuz=$(find "$out" -maxdepth 1 -name '*.vmlinuz' | head -n1)
	if [ -z "$cpio" ] || [ -z "$vmlinuz" ] || [ ! -s "$out/image-info.env" ]; then
		echo "mkosi left no cpio/vmlinuz/image-info.env in $out"
		return 1
	fi
	rm -rf "$img.tmp"
	mkdir -p "$img.tmp"
	mv "$cpio" "$img.tmp/image.cpio"
	mv "$vmlinuz" "$img.tmp/image.vmlinuz"
	cp "$out/image-info.env" "$img.tmp/"
	printf 'IMAGE_BUILD_S=%s\nIMAGE_BUILT=%q\n' pending "$(date -Is)" >>"$img.tmp/image-info.env"
	# Keep one image per kernel: drop older keys.
	find "${img%/*}" -mindepth 1 -maxdepth 1 -type d ! -name "${img##*/}*" -exec rm -rf {} +
	rm -rf "$img"
	mv "$img.tmp" "$img"
	rm -rf "$out"
}

# ---------------------------------------------------------------------------------------------
# boot and results

# matrix_boot_timeout K - seconds before K's guest counts as hung: CDEV_MATRIX_BOOT_TIMEOUT
# (default 600), doubled for onearg, whose kernel has the debug options on (lockdep, kmemleak:
# several times slower under TCG).
matrix_boot_timeout() {
	local t=${CDEV_MATRIX_BOOT_TIMEOUT:-600}
	[ "$1" != onearg ] || t=$((t * 2))
	echo "$t"
}

# matrix_boot K KDIR IMGDIR - boot; sets BOOT_RC, BOOT_S, BOOT_STATUS (ok|hang|qemu_error|...)
matrix_boot() {
	local k=$1 kdir=$2 img=$3 mem size accel t0 timeout
	timeout=$(matrix_boot_timeout "$k")
	# The image and the test overlay as one initramfs (the kernel unpacks concatenated cpios).
	cat "$img/image.cpio" "$MATRIX_DIR/overlay/overlay.cpio" >"$kdir/initrd.cpio"
	size=$(($(stat -c %s "$kdir/initrd.cpio") / 1048576))
	mem=$(((size * 2 + 1024 + 255) / 256 * 256))
	[ "$ACCEL" != probe ] || matrix_probe_kvm "$img/image.vmlinuz"
	if [ "$ACCEL" = kvm ]; then
		accel=(-accel kvm -cpu host)
	else
		accel=(-accel "tcg,thread=multi" -cpu max)
	fi
	: >"$kdir/console.log"
	: >"$kdir/ktap.txt"
	local cmd=(qemu-system-x86_64 -machine q35 "${accel[@]}" -smp "${CDEV_MATRIX_SMP:-2}" -m "$mem"
		-nodefaults -display none -no-reboot -monitor none
		-chardev "file,id=con,path=$kdir/console.log" -serial chardev:con
		-device "isa-debug-exit,iobase=0xf4,iosize=0x04"
		-device virtio-serial-pci
		-chardev "file,id=ktap,path=$kdir/ktap.txt"
		-device "virtserialport,chardev=ktap,name=org.cdev-compat.ktap"
		-kernel "$img/image.vmlinuz" -initrd "$kdir/initrd.cpio"
		-append "console=ttyS0 rdinit=/sbin/init panic=-1 loglevel=5 mitigations=off systemd.unit=cdev-matrix.target systemd.firstboot=no systemd.show_status=auto ${CDEV_MATRIX_APPEND:-}")
	printf '%q ' "${cmd[@]}" >"$kdir/qemu.cmd"
	echo >>"$kdir/qemu.cmd"
	t0=$(date +%s.%N)
	BOOT_RC=0
	timeout --kill-after=10 "$timeout" "${cmd[@]}" </dev/null >"$kdir/qemu.log" 2>&1 || BOOT_RC=$?
	BOOT_S=$(elapsed "$t0")
	rm -f "$kdir/initrd.cpio"
	GUEST_STATUS=
	if [ "$BOOT_RC" -eq 124 ] || [ "$BOOT_RC" -eq 137 ]; then
		BOOT_STATUS=hang
	elif [ "$BOOT_RC" -ge 33 ] && [ $((BOOT_RC % 2)) -eq 1 ]; then
		GUEST_STATUS=$(((BOOT_RC >> 1) - 16))
		case "$GUEST_STATUS" in
		0) BOOT_STATUS=ok ;;
		1) BOOT_STATUS=tests_failed ;;
		*) BOOT_STATUS=runner_error ;;
		esac
	elif [ "$BOOT_RC" -eq 0 ]; then
		BOOT_STATUS=no_exit_status
	else
		BOOT_STATUS=qemu_error
	fi
}

# ktap_tsv FILE - leaf results as "result<TAB>test<TAB>subtest<TAB>diagnostics"; probe lines as
# "probe<TAB>key=value ...". A parent without subtests is its own leaf; a failed parent whose
# subtests all passed adds one failed leaf.
ktap_tsv() {
	awk '
	function res(line) { return (line ~ /^not ok/) ? "fail" : "pass" }
	function name(line) { sub(/^(not )?ok [0-9]+ ?/, "", line); sub(/ # SKIP.*/, "", line); return line }
	function adddiag(d) { diag = (diag == "") ? d : diag "; " d }
	/^# cdev-compat-probe: / { sub(/^# cdev-compat-probe: /, ""); print "probe\t" $0; next }
	/^    (not )?ok [0-9]+/ {
		l = substr($0, 5); n++
		r[n] = res(l); if (l ~ / # SKIP/) r[n] = "skip"
		s[n] = name(l); dg[n] = diag; diag = ""; next
	}
	/^    # / { adddiag(substr($0, 7)); next }
	/^(not )?ok [0-9]+/ {
		pr = res($0); pn = name($0); anyfail = 0
		for (i = 1; i <= n; i++) {
			print r[i] "\t" pn "\t" s[i] "\t" dg[i]
			if (r[i] == "fail") anyfail = 1
		}
		if (n == 0 || (pr == "fail" && !anyfail)) print pr "\t" pn "\t" (n ? "exit_status" : "") "\t" diag
		n = 0; diag = ""; next
	}
	/^# / { adddiag(substr($0, 3)) }
	' "$1"
}

# Per-kernel result state (R_*), kept in KDIR/result.env between the prepare and boot halves.
write_result() {
	R_TOTAL_S=$(elapsed "$R_T0")
	{
		printf 'R_NAME=%q\nR_STATUS=%q\nR_VERSION=%q\nR_ARITY=%q\n' "$k" "$R_STATUS" "$R_VERSION" "$R_ARITY"
		printf 'R_PASSED=%q\nR_FAILED=%q\nR_SKIPPED=%q\n' "$R_PASSED" "$R_FAILED" "$R_SKIPPED"
		printf 'R_BOOT_S=%q\nR_TOTAL_S=%q\nR_IMAGE_S=%q\nR_IMAGE_CACHED=%q\n' \
			"$R_BOOT_S" "$R_TOTAL_S" "$R_IMAGE_S" "$R_IMAGE_CACHED"
		printf 'R_DKMS_S=%q\nR_KRESOLVED=%q\nR_MSG=%q\nR_DIR=%q\n' "$R_DKMS_S" "$R_KRESOLVED" "$R_MSG" "$kdir"
		printf 'R_T0=%q\nR_IMG=%q\n' "$R_T0" "$R_IMG"
	} >"$kdir/result.env"
}

fail_kernel() {
	R_MSG=$1
	[ "$R_FAILED" -gt 0 ] || R_FAILED=1
	write_result
	say "$k: FAILED: $R_MSG"
	return 1
}

# matrix_prepare_kernel K - resolve the kernel and build or reuse its image (result.env has
# R_STATUS=prepared on success).
matrix_prepare_kernel() {
	k=$1 kdir=$MATRIX_DIR/$1
	local st key img msg cached=no
	rm -rf "$kdir"
	mkdir -p "$kdir"
	R_T0=$(date +%s.%N) R_IMG=
	R_STATUS=error R_VERSION='?' R_ARITY='?' R_PASSED=0 R_FAILED=0 R_SKIPPED=0 R_BOOT_S=- R_MSG=
	R_IMAGE_S=- R_IMAGE_CACHED=- R_DKMS_S=- R_KRESOLVED=

	# resolve
	st=$(date +%s.%N)
	matrix_sources "$k" "$kdir/pkgmngr"
	if ! matrix_resolve "$k" "$kdir/pkgmngr" >"$kdir/resolve.log" 2>&1; then
		STEP_SECS=$(elapsed "$st") step "$k" resolve FAILED
		fail_kernel "resolve: $(cat "$kdir/resolve.log")"
		return 1
	fi
	R_KRESOLVED=$KRESOLVED
	STEP_SECS=$(elapsed "$st") step "$k" resolve "$KRESOLVED"

	# legacy drivers
	st=$(date +%s.%N)
	if ! matrix_stage_legacy "$k" >"$kdir/legacy-stage.log" 2>&1; then
		STEP_SECS=$(elapsed "$st") step "$k" legacy FAILED
		fail_kernel "legacy drivers: $(tail -n 3 "$kdir/legacy-stage.log")"
		return 1
	fi
	STEP_SECS=$(elapsed "$st") step "$k" legacy "staged $(cut -d' ' -f1 "$kdir/legacy/manifest" | uniq |
		tr '\n' ' ')from $(tr '\n' ' ' <"$kdir/legacy/sources")"

	# image
	st=$(date +%s.%N)
	key=$(matrix_key "$k" "$kdir/pkgmngr")
	img=$CDEV_COMPAT_CACHE/matrix/images/$k/$key
	if [ -z "${CDEV_MATRIX_REBUILD:-}" ] && [ -s "$img/image.cpio" ] && [ -s "$img/image-info.env" ]; then
		cached=yes
	else
		say "$k: image: building (key $key, log $kdir/mkosi.log)"
		mkdir -p "${img%/*}"
		msg=$(matrix_build_image "$k" "$kdir" "$img" 2>&1) || {
			STEP_SECS=$(elapsed "$st") step "$k" image "FAILED"
			fail_kernel "image: $msg"
			return 1
		}
		sed -i "s/^IMAGE_BUILD_S=pending/IMAGE_BUILD_S=$(elapsed "$st")/" "$img/image-info.env"
	fi
	# shellcheck disable=SC1091
	. "$img/image-info.env"
	R_IMG=$img
	R_VERSION="$KVER (${KVERSION:-$KPKG_VERSION})"
	R_IMAGE_CACHED=$cached
	R_IMAGE_S=$IMAGE_BUILD_S
	R_DKMS_S=$DKMS_BUILD_S
	R_STATUS=prepared
	write_result
	STEP_SECS=$(elapsed "$st") step "$k" image "$([ $cached = yes ] && echo "cached" || echo "built") $KVER," \
		"$DKMS_MODULE/$DKMS_VERSION dkms-installed (dkms build ${DKMS_BUILD_S}s)," \
		"legacy drivers built in ${LEGACY_BUILD_S:-?}s," \
		"$(($(stat -c %s "$img/image.cpio") / 1048576)) MiB"
}

# matrix_boot_kernel K - boot the prepared image, collect KTAP, record the result.
matrix_boot_kernel() {
	k=$1 kdir=$MATRIX_DIR/$1
	local img tsv passed failed skipped arity
	# shellcheck disable=SC1091
	. "$kdir/result.env"
	img=$R_IMG
	say "$k: boot: starting ($ACCEL, log $kdir/console.log)"
	matrix_boot "$k" "$kdir" "$img"
	R_BOOT_S=$BOOT_S
	ln -sfn "$img" "$kdir/image"
	tsv=$(ktap_tsv "$kdir/ktap.txt")
	if ! grep -qv '^probe' <<<"$tsv"; then
		# No KTAP on the virtio port: fall back to what reached the console.
		grep -aE '^(    )?(KTAP version|1\.\.|(not )?ok [0-9]|# )' "$kdir/console.log" >"$kdir/ktap-console.txt" || true
		tsv=$(ktap_tsv "$kdir/ktap-console.txt")
	fi
	printf '%s\n' "$tsv" >"$kdir/results.tsv"
	passed=$(grep -c '^pass' <<<"$tsv" || true)
	failed=$(grep -c '^fail' <<<"$tsv" || true)
	skipped=$(grep -c '^skip' <<<"$tsv" || true)
	arity=$(awk -F'\t' '$1 == "probe" { if (match($2, /arity=[^ ]*/)) print substr($2, RSTART + 6, RLENGTH - 6) }' <<<"$tsv" | head -n1)
	R_PASSED=$passed R_FAILED=$failed R_SKIPPED=$skipped R_ARITY=${arity:-?}
	STEP_SECS=$BOOT_S step "$k" boot "$BOOT_STATUS (qemu exit $BOOT_RC, $ACCEL): $passed passed, $failed failed"
	case "$BOOT_STATUS" in
	ok)
		if [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; then
			R_STATUS=pass
			write_result
			return 0
		fi
		R_STATUS=fail
		fail_kernel "guest reported success but KTAP has $passed passed, $failed failed (console: $kdir/console.log)"
		;;
	hang)
		R_STATUS=hang
		{
			say "$k: guest hung (killed after $(matrix_boot_timeout "$k")s); last console lines:"
			tail -n 25 "$kdir/console.log" | sed 's/^/    | /'
		}
		fail_kernel "hang after ${BOOT_S}s (console: $kdir/console.log)"
		;;
	*)
		R_STATUS=fail
		say "$k: last console lines:"
		grep -av '^\[ *[0-9.]*\] run-guest-tests.sh\[[0-9]*\]:     ok ' "$kdir/console.log" | tail -n 25 | sed 's/^/    | /'
		fail_kernel "$BOOT_STATUS (console: $kdir/console.log, ktap: $kdir/ktap.txt)"
		;;
	esac
}

# ---------------------------------------------------------------------------------------------
# report

xml_escape() {
	sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' <<<"$1"
}

matrix_junit() {
	local out=$MATRIX_DIR/junit.xml k f tests fails r t s d
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<testsuites name="cdev-compat matrix">'
		for k in "${kernels[@]}"; do
			f=$MATRIX_DIR/$k/result.env
			[ -f "$f" ] || continue
			# shellcheck disable=SC1090
			. "$f"
			if [ -s "$MATRIX_DIR/$k/results.tsv" ] && grep -qE '^(pass|fail|skip)' "$MATRIX_DIR/$k/results.tsv"; then
				tests=$(grep -cE '^(pass|fail|skip)' "$MATRIX_DIR/$k/results.tsv")
				fails=$(grep -c '^fail' "$MATRIX_DIR/$k/results.tsv" || true)
			else
				tests=1 fails=1
			fi
			printf '  <testsuite name="%s" tests="%s" failures="%s" time="%s">\n' "$k" "$tests" "$fails" "$R_TOTAL_S"
			printf '    <properties><property name="kernel" value="%s"/><property name="arity" value="%s"/></properties>\n' \
				"$(xml_escape "$R_VERSION")" "$(xml_escape "$R_ARITY")"
			if [ "$tests" -eq 1 ] && [ "$fails" -eq 1 ] && ! grep -q '^fail' "$MATRIX_DIR/$k/results.tsv" 2>/dev/null; then
				printf '    <testcase classname="matrix.%s" name="boot"><failure message="%s"/></testcase>\n' \
					"$k" "$(xml_escape "$R_STATUS: $R_MSG")"
			else
				while IFS=$'\t' read -r r t s d; do
					case "$r" in pass | fail | skip) ;; *) continue ;; esac
					printf '    <testcase classname="matrix.%s.%s" name="%s"' "$k" "$(xml_escape "$t")" "$(xml_escape "${s:-$t}")"
					case "$r" in
					pass) echo '/>' ;;
					skip) echo '><skipped/></testcase>' ;;
					fail) printf '><failure message="%s"/></testcase>\n' "$(xml_escape "${d:-failed} (console: $R_DIR/console.log)")" ;;
					esac
				done <"$MATRIX_DIR/$k/results.tsv"
			fi
			echo '  </testsuite>'
		done
		echo '</testsuites>'
	} >"$out"
}

matrix_report() {
	local k f tp=0 tf=0 kp=0 kf=0 p
	{
		printf '\n%-9s | %-44s | %-7s | %-13s | %8s | %7s\n' kernel version arity "tests (p/f)" "boot s" "total s"
		printf '%s\n' "----------|----------------------------------------------|---------|---------------|----------|--------"
		for k in "${kernels[@]}"; do
			f=$MATRIX_DIR/$k/result.env
			if [ ! -f "$f" ]; then
				R_VERSION='?' R_ARITY='?' R_PASSED=0 R_FAILED=1 R_BOOT_S=- R_TOTAL_S=- R_STATUS=error
				R_MSG="no result (runner error)"
			else
				# shellcheck disable=SC1090
				. "$f"
				if [ "$R_STATUS" = prepared ]; then
					R_STATUS=error R_FAILED=1 R_MSG="image ready but the boot did not complete (runner error)"
				fi
			fi
			printf '%-9s | %-44s | %-7s | %-13s | %8s | %7s\n' "$k" "$R_VERSION" "$R_ARITY" \
				"$R_PASSED / $R_FAILED" "$R_BOOT_S" "$R_TOTAL_S"
			tp=$((tp + R_PASSED))
			tf=$((tf + R_FAILED))
			if [ "$R_STATUS" = pass ]; then kp=$((kp + 1)); else kf=$((kf + 1)); fi
		done
		echo
		for k in "${kernels[@]}"; do
			f=$MATRIX_DIR/$k/result.env
			[ -f "$f" ] || continue
			# shellcheck disable=SC1090
			. "$f"
			[ "$R_STATUS" = pass ] || printf '%s: %s: %s\n' "$k" "$R_STATUS" "$R_MSG" | awk 'NR <= 14'
		done
		printf 'phases:'
		for p in "${PHASES[@]}"; do printf ' %ss' "${p/=/ }"; done
		printf ' (total %ss)\n' "$(now_s)"
		# Sums over kernels; boots overlap image builds, so they exceed the "kernels" phase.
		for k in "${kernels[@]}"; do
			f=$MATRIX_DIR/$k/result.env
			[ -f "$f" ] || continue
			# shellcheck disable=SC1090
			. "$f"
			if [ "$R_IMAGE_CACHED" = no ]; then
				printf 'built %s %s\n' "$k" "$R_IMAGE_S"
			elif [ "$R_IMAGE_CACHED" = yes ]; then
				printf 'cached %s 0\n' "$k"
			fi
			[ "$R_BOOT_S" = - ] || printf 'boot %s %s\n' "$k" "$R_BOOT_S"
		done | awk '$1 == "built" { nb++; ib += $3 } $1 == "cached" { nc++ } $1 == "boot" { n++; b += $3 }
			END { printf "images: %d built in %.1fs, %d cached; boots: %d, %.1fs in all\n", nb, ib, nc, n, b }'
		printf 'junit: %s\n' "$MATRIX_DIR/junit.xml"
		printf 'kernels: %d passed, %d failed\n' "$kp" "$kf"
		printf '%d passed, %d failed\n' "$tp" "$tf"
	} >"$MATRIX_DIR/summary.txt"
	cat "$MATRIX_DIR/summary.txt"
	matrix_junit
	[ "$kf" -eq 0 ]
}
