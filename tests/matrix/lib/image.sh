# shellcheck shell=bash
# Images: one mkosi cpio per target kernel, cached in
# $CDEV_COMPAT_CACHE/matrix/images/<kernel>/<key>/ (key: mkosi version and config, generated
# apt sources, resolved packages, staged legacy drivers, the .debs), holding
#   image.cpio      the root file system the guest boots (tool chain and headers removed)
#   image.vmlinuz   its kernel
#   image-info.env  what mkosi.postinst.chroot recorded (KVER, DKMS build time, ...)
#   dpkg-lists/     the image's packages' file lists (the vendor run's small root)
#   probe-cache/    cdev-compat's probe results for this kernel (vendor builds, vendor.sh)
#   buildroot/      the build side of the same image (its compiler, the kernel's headers, the
#                   installed cdev-compat files): vendor modules are built here, on the host
# The three keys used last are kept per kernel; mkosi's incremental cache (base tree per kernel) makes a rebuild
# after a new .deb cost the package install, the DKMS builds and the legacy drivers.

# matrix_stage_legacy K - stage the real legacy drivers for K's image in MATRIX_DIR/K/legacy
# (tests/legacy/stage-drivers.sh): from the linux-source of K's own kernel; for the one-arg
# kernels, from the patched tree of their base. A kernel whose release is also a one-arg base
# gets the other arity's source too: bookworm the one-arg 6.1 port, the one-arg kernels their
# base's unpatched linux-source.
matrix_stage_legacy() {
	local k=$1 dir=$MATRIX_DIR/$1 deb tree base args=()
	if matrix_built_here "$k"; then
		base=$(kernel_field "$k" base)
	elif [ -f "$CDEV_TOP/kernel/bases/$(kernel_field "$k" release)/base.conf" ]; then
		base=$(kernel_field "$k" release)
	fi
	if [ -n "${base:-}" ]; then
		tree=$("$CDEV_TOP/kernel/apply-series.sh" --base "$base" | tail -n1) ||
			{ echo "kernel/apply-series.sh --base $base failed"; return 1; }
		[ -d "$tree" ] || { echo "kernel/apply-series.sh --base $base gave no tree"; return 1; }
	fi
	if matrix_built_here "$k"; then
		args=("unmodified=$tree" "other-arity=$("$CDEV_TOP/kernel/source-tarball.sh" --base "$base")")
	else
		deb=$(matrix_linux_source "$k" "$dir/pkgmngr") || { echo "$deb"; return 1; }
		args=("unmodified=$deb")
		[ -z "${base:-}" ] || args+=("other-arity=$tree")
	fi
	"$CDEV_TOP/tests/legacy/stage-drivers.sh" "$dir/legacy" "${args[@]}"
}

# matrix_key K DIR - the image cache key: config, generated sources, resolved packages, .debs.
matrix_key() {
	local k=$1 dir=$2 f
	{
		mkosi --version
		for f in "$CDEV_TOP/mkosi.conf" "$CDEV_TOP/mkosi.profiles/$(matrix_profile "$k").conf" "$CDEV_TOP/mkosi.postinst.chroot" \
			"$CDEV_TOP"/mkosi.conf.d/*; do
			[ -f "$f" ] || continue
			printf '== %s\n' "${f#"$CDEV_TOP"/}"
			cat "$f"
		done
		find "$dir" -type f | LC_ALL=C sort | xargs cat
		printf 'packages %s\n' "${KPKGS[*]}"
		(cd "$MATRIX_DIR/$k/legacy" && find . -type f | LC_ALL=C sort | xargs sha256sum)
		printf 'deb %s\n' "$DEB_SHA"
		! matrix_built_here "$k" || printf 'kernel-debs %s\n' "${KDEB_SHA[$k]:-}"
	} | sha256sum | cut -c1-16
}

# matrix_build_image K KDIR IMGDIR - mkosi build into KDIR/mkosi.output, then into the cache.
matrix_build_image() {
	local k=$1 kdir=$2 img=$3 out=$2/mkosi.output mc=$CDEV_COMPAT_CACHE/matrix/mkosi/$1 p cpio vmlinuz
	local args=() profile
	profile=$(matrix_profile "$k")
	# mkosi's incremental cache per kernel; downloaded packages per profile (same userspace)
	rm -rf "$out" "$kdir/debs"
	mkdir -p "$out" "$kdir/debs" "$mc/incremental" "${mc%/*}/$profile/packages"
	cp "${DEBS[@]}" "$kdir/debs/"
	args=(-C "$CDEV_TOP" --profile "$profile" --force
		--package-manager-tree "$kdir/pkgmngr"
		--output-dir "$out" --cache-dir "$mc/incremental" --package-cache-dir "${mc%/*}/$profile/packages"
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
	if [ -z "$cpio" ] || [ -z "$vmlinuz" ] || [ ! -s "$out/image-info.env" ] || [ ! -d "$out/buildroot" ] ||
		[ ! -d "$out/dpkg-lists" ]; then
		echo "mkosi left no cpio/vmlinuz/image-info.env/buildroot/dpkg-lists in $out"
		return 1
	fi
	rm -rf "$img.tmp"
	mkdir -p "$img.tmp"
	mv "$cpio" "$img.tmp/image.cpio"
	mv "$vmlinuz" "$img.tmp/image.vmlinuz"
	mv "$out/buildroot" "$img.tmp/buildroot"
	mv "$out/dpkg-lists" "$img.tmp/dpkg-lists"
	cp "$out/image-info.env" "$img.tmp/"
	printf 'IMAGE_BUILD_S=%s\nIMAGE_BUILT=%q\n' pending "$(date -Is)" >>"$img.tmp/image-info.env"
	# Keep the three images of each kernel used last (several worktrees share the cache).
	find "${img%/*}" -mindepth 1 -maxdepth 1 -type d ! -name "${img##*/}*" -printf '%T@ %p\n' |
		sort -rn | tail -n +3 | cut -d' ' -f2- | xargs -r rm -rf
	rm -rf "$img"
	mv "$img.tmp" "$img"
	rm -rf "$out"
}

# matrix_image K KDIR - resolve K, stage its legacy drivers, and build or reuse its image.
# Sets IMG (the cache dir), IMAGE_CACHED (yes|no), KRESOLVED; on failure IMAGE_ERROR and returns 1.
# shellcheck disable=SC2034 # IMAGE_CACHED, IMAGE_ERROR, IMAGE_S: its results, read by lib/run-kernel.sh
matrix_image() {
	local k=$1 kdir=$2 st key msg
	IMAGE_ERROR=''
	# resolve
	st=$(date +%s.%N)
	matrix_sources "$k" "$kdir/pkgmngr"
	if ! matrix_resolve "$k" "$kdir/pkgmngr" >"$kdir/resolve.log" 2>&1; then
		STEP_SECS=$(elapsed "$st") matrix_step "$k" resolve FAILED
		IMAGE_ERROR="resolve: $(cat "$kdir/resolve.log")"
		return 1
	fi
	STEP_SECS=$(elapsed "$st") matrix_step "$k" resolve "$KRESOLVED"

	# legacy drivers (part of the image)
	st=$(date +%s.%N)
	if ! matrix_stage_legacy "$k" >"$kdir/legacy-stage.log" 2>&1; then
		STEP_SECS=$(elapsed "$st") matrix_step "$k" legacy FAILED
		IMAGE_ERROR="legacy drivers: $(tail -n 3 "$kdir/legacy-stage.log")"
		return 1
	fi
	STEP_SECS=$(elapsed "$st") matrix_step "$k" legacy "staged $(cut -d' ' -f1 "$kdir/legacy/manifest" | uniq |
		tr '\n' ' ')from $(tr '\n' ' ' <"$kdir/legacy/sources")"

	# image
	st=$(date +%s.%N)
	key=$(matrix_key "$k" "$kdir/pkgmngr")
	IMG=$CDEV_COMPAT_CACHE/matrix/images/$k/$key
	IMAGE_CACHED=no
	if [ -z "${CDEV_MATRIX_REBUILD:-}" ] && [ -s "$IMG/image.cpio" ] && [ -s "$IMG/image-info.env" ] &&
		[ -d "$IMG/buildroot" ] && [ -d "$IMG/dpkg-lists" ]; then
		IMAGE_CACHED=yes
		touch "$IMG"
	else
		matrix_say "$k: image: building (key $key, log $kdir/mkosi.log)"
		mkdir -p "${IMG%/*}"
		msg=$(matrix_build_image "$k" "$kdir" "$IMG" 2>&1) || {
			STEP_SECS=$(elapsed "$st") matrix_step "$k" image "FAILED"
			IMAGE_ERROR="image: $msg"
			return 1
		}
		sed -i "s/^IMAGE_BUILD_S=pending/IMAGE_BUILD_S=$(elapsed "$st")/" "$IMG/image-info.env"
	fi
	ln -sfn "$IMG" "$kdir/image"
	IMAGE_S=$(elapsed "$st")
}
