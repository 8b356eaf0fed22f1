# shellcheck shell=bash disable=SC2034,SC2154,SC2153
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
matrix_image() {
	local k=$1 kdir=$2 st key msg
	IMAGE_ERROR=''
	# resolve
	st=$(date +%s.%N)
	matrix_sources "$k" "$kdir/pkgmngr"
	if ! matrix_resolve "$k" "$kdir/pkgmngr" >"$kdir/resolve.log" 2>&1; then
		STEP_SECS=$(elapsed "$st") step "$k" resolve FAILED
		IMAGE_ERROR="resolve: $(cat "$kdir/resolve.log")"
		return 1
	fi
	STEP_SECS=$(elapsed "$st") step "$k" resolve "$KRESOLVED"

	# legacy drivers (part of the image)
	st=$(date +%s.%N)
	if ! matrix_stage_legacy "$k" >"$kdir/legacy-stage.log" 2>&1; then
		STEP_SECS=$(elapsed "$st") step "$k" legacy FAILED
		IMAGE_ERROR="legacy drivers: $(tail -n 3 "$kdir/legacy-stage.log")"
		return 1
	fi
	STEP_SECS=$(elapsed "$st") step "$k" legacy "staged $(cut -d' ' -f1 "$kdir/legacy/manifest" | uniq |
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
		say "$k: image: building (key $key, log $kdir/mkosi.log)"
		mkdir -p "${IMG%/*}"
		msg=$(matrix_build_image "$k" "$kdir" "$IMG" 2>&1) || {
			STEP_SECS=$(elapsed "$st") step "$k" image "FAILED"
			IMAGE_ERROR="image: $msg"
			return 1
		}
		sed -i "s/^IMAGE_BUILD_S=pending/IMAGE_BUILD_S=$(elapsed "$st")/" "$IMG/image-info.env"
	fi
	ln -sfn "$IMG" "$kdir/image"
	IMAGE_S=$(elapsed "$st")
}

# mod_closure MODDIR NAME... - the paths (relative to MODDIR, from its modules.dep) of the
# modules NAME and everything they depend on; names not in modules.dep (built in, or none)
# are left out.
mod_closure() {
	local dir=$1
	shift
	awk -v want="$*" '
	function base(p) { sub(/.*\//, "", p); sub(/\.ko(\.[a-z]+)?$/, "", p); gsub(/-/, "_", p); return p }
	BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) { x = w[i]; gsub(/-/, "_", x); need[x] = 1 } }
	{ sub(/:$/, "", $1); sub(/:/, "", $1); mod = $1; deps[mod] = ""
	  for (i = 2; i <= NF; i++) deps[mod] = deps[mod] " " $i; byname[base(mod)] = mod }
	END {
		for (x in need) if (x in byname) { stack[++sp] = byname[x] }
		while (sp > 0) {
			m = stack[sp--]; if (m in seen) continue; seen[m] = 1; print m
			k = split(deps[m], d, " "); for (i = 1; i <= k; i++) if (!(d[i] in seen)) stack[++sp] = d[i]
		}
	}' "$dir/modules.dep"
}

# FAST_MODULES: the kernel's own modules the fast path loads itself (fast-init.sh): the
# virtio bus and the console driver of the KTAP port.
FAST_MODULES="virtio_pci virtio_console"

# needed_sonames - in the current directory (a root), the sonames its programs and libraries
# (usr/bin, usr/sbin, usr/lib, usr/libexec) name as ELF NEEDED, one per line, sorted.
needed_sonames() {
	find usr/bin usr/sbin usr/lib usr/libexec -type f \( -perm -u+x -o -name '*.so*' \) \
		-size +0 -print0 2>/dev/null | xargs -0 -r readelf -d 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u
}

# prune_libs - in the current directory (a root), remove the libraries of
# usr/lib/x86_64-linux-gnu that no ELF file there names as NEEDED (glibc's own and NSS modules
# stay); true when it removed any.
prune_libs() {
	local f n removed=1 needed
	needed=$(needed_sonames)
	for f in usr/lib/x86_64-linux-gnu/*.so.*; do
		n=${f##*/}
		case "$n" in libnss_* | libresolv* | ld-linux* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.*) continue ;; esac
		[ ! -L "$f" ] || continue
		# a library is needed by its soname: the link to it, or its own name
		grep -qxF "$n" <<<"$needed" && continue
		grep -qxF "$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" <<<"$needed" && continue
		rm -f "$f"
		removed=0
	done
	find usr/lib/x86_64-linux-gnu -maxdepth 1 -xtype l -delete
	return "$removed"
}

# matrix_fast_cpio IMG - IMG/fast.cpio: the fast path's initramfs, made once per image from
# image.cpio. Under TCG the kernel unpacks an initramfs at about 20 MB/s, so the fast path
# leaves out what only the systemd boot, the package manager and the tool chain's leftovers
# use, and the kernel's modules but FAST_MODULES (a vendor run adds the ones its module
# depends on, vendor.sh); libraries stay when a kept program or library needs them (ELF
# NEEDED, plus glibc's NSS modules). Prints its path. CDEV_MATRIX_FAST_CPIO=full boots the
# whole image.cpio instead.
matrix_fast_cpio() {
	local img=$1 tmp kver keep f
	if [ "${CDEV_MATRIX_FAST_CPIO:-small}" = full ]; then
		printf '%s\n' "$img/image.cpio"
		return 0
	fi
	if [ -s "$img/fast.cpio" ] && [ "$img/fast.cpio" -nt "$img/image.cpio" ]; then
		printf '%s\n' "$img/fast.cpio"
		return 0
	fi
	need_pkgs readelf:binutils
	tmp=$(mktemp -d "$img/fast.XXXXXX")
	(cd "$tmp" && cpio -idm --quiet --no-absolute-filenames <"$img/image.cpio") || { rm -rf "$tmp"; return 1; }
	# shellcheck disable=SC1091
	kver=$(. "$img/image-info.env" && printf '%s' "$KVER")
	(
		cd "$tmp" || exit 1
		# the kernel's modules: only FAST_MODULES and their dependencies
		cd "usr/lib/modules/$kver" || exit 1
		find kernel -type f | LC_ALL=C sort >"$tmp.all"
		mod_closure . "$FAST_MODULES" | LC_ALL=C sort >"$tmp.keep"
		LC_ALL=C comm -23 "$tmp.all" "$tmp.keep" | xargs -r rm -f
		rm -f "$tmp.all" "$tmp.keep"
		cd "$tmp" || exit 1
		# the systemd boot, the package manager, perl, DKMS's sources and state, docs
		rm -rf usr/lib/systemd usr/lib/x86_64-linux-gnu/systemd usr/bin/systemd* usr/bin/systemctl \
			usr/bin/journalctl usr/bin/udevadm usr/bin/perl* usr/lib/x86_64-linux-gnu/perl* usr/share/perl* \
			usr/bin/apt* usr/lib/apt usr/lib/x86_64-linux-gnu/libapt-* var/lib/apt var/cache var/lib/dpkg \
			var/lib/dkms usr/src usr/sbin/dkms usr/lib/dkms usr/lib/x86_64-linux-gnu/gconv \
			usr/lib/x86_64-linux-gnu/gprofng usr/lib/udev/hwdb.d usr/share/doc usr/share/man \
			usr/lib/modules/*/vmlinuz boot
		# libraries no kept program or library needs, until nothing changes
		while prune_libs; do :; done
	)
	make_cpio "$tmp" "$img/fast.cpio.tmp" && mv "$img/fast.cpio.tmp" "$img/fast.cpio"
	rm -rf "$tmp"
	printf '%s\n' "$img/fast.cpio"
}

# matrix_kernel_to_boot IMG - the kernel file QEMU boots for IMG (prints its path):
# IMG/image.vmlinux, the uncompressed kernel taken once from image.vmlinuz, when it has a PVH
# entry point (the ELF note XEN_ELFNOTE_PHYS32_ENTRY, CONFIG_PVH: Debian's kernels); else
# image.vmlinuz. QEMU starts such an ELF kernel at that entry, so the guest does not
# decompress itself: under TCG that took 1.2 s of trixie's boot (zstd). The payload is found
# through the bzImage header (setup_sects, payload_offset, payload_length), decompressed by
# its magic, and kept only if it is an ELF file of the size the payload's last 4 bytes give.
# CDEV_MATRIX_PVH=0 boots image.vmlinuz.
matrix_kernel_to_boot() {
	local img=$1 z=$1/image.vmlinuz out=$1/image.vmlinux setup off len magic tool size notes
	if [ "${CDEV_MATRIX_PVH:-1}" = 0 ]; then
		printf '%s\n' "$z"
		return 0
	fi
	if [ -s "$out" ] && [ "$out" -nt "$z" ]; then
		printf '%s\n' "$out"
		return 0
	fi
	if [ -e "$out.none" ] && [ "$out.none" -nt "$z" ]; then
		printf '%s\n' "$z"
		return 0
	fi
	need_pkgs readelf:binutils zstd:zstd lz4:lz4 xz:xz-utils
	setup=$(od -An -tu1 -j $((0x1f1)) -N1 "$z" | tr -d ' ')
	off=$(od -An -tu4 -j $((0x248)) -N4 "$z" | tr -d ' ')
	len=$(od -An -tu4 -j $((0x24c)) -N4 "$z" | tr -d ' ')
	off=$(((${setup:-0} + 1) * 512 + ${off:-0}))
	magic=$(od -An -tx1 -j "$off" -N4 "$z" | tr -d ' ')
	case "$magic" in
	28b52ffd) tool=(zstd -dcq) ;;
	02214c18) tool=(lz4 -dcq) ;;
	1f8b*) tool=(gzip -dc) ;;
	fd377a58) tool=(xz -dcq) ;;
	*) tool=() ;;
	esac
	size=$(od -An -tu4 -j $((off + len - 4)) -N4 "$z" | tr -d ' ')
	rm -f "$out.tmp.$$"
	# (the decompressors may complain about the size bytes after the stream: their status is
	# not the test, the result is)
	[ ${#tool[@]} -eq 0 ] || tail -c +$((off + 1)) "$z" | head -c "$len" | "${tool[@]}" >"$out.tmp.$$" 2>/dev/null || true
	notes=$(readelf -n "$out.tmp.$$" 2>/dev/null || true)
	if [ -s "$out.tmp.$$" ] && [ "$(od -An -tx1 -N4 "$out.tmp.$$" | tr -d ' ')" = 7f454c46 ] &&
		[ "$(stat -c %s "$out.tmp.$$")" = "$size" ] &&
		[[ $notes == *"(0x00000012)"* || $notes == *PHYS32_ENTRY* ]]; then
		mv "$out.tmp.$$" "$out"
		printf '%s\n' "$out"
	else
		rm -f "$out.tmp.$$"
		: >"$out.none"
		printf '%s\n' "$z"
	fi
}

# VENDOR_ROOT_PKGS: the packages of the image whose programs a vendor run's guest has (its
# runner needs bash, coreutils, util-linux, grep, sed, mawk and kmod; a vendor's test gets the
# rest of a minimal shell environment). docs/vendors.md lists them.
VENDOR_ROOT_PKGS="base-files base-passwd bash dash coreutils util-linux mount bsdutils grep sed mawk findutils
diffutils gzip tar xz-utils kmod libc6"

# matrix_vendor_cpio IMG - the root a vendor run boots, IMG/vendor-root-<key>.cpio (key: this
# function and VENDOR_ROOT_PKGS), made once per image from image.cpio: the programs and data
# of VENDOR_ROOT_PKGS (dpkg's lists in IMG/dpkg-lists) without documentation and locales,
# /etc, the symbolic links of usr/bin and usr/sbin that land in it (alternatives such as awk),
# the shared libraries its programs need (ELF NEEDED, followed; a listed package's other
# libraries are left out), the kernel's module index and FAST_MODULES (vendor.sh appends the
# modules a vendor module depends on). About 25 MiB instead of fast.cpio's 50-90: under TCG
# the kernel unpacks ~20 MB/s. Prints its path. MODULE_GUEST_ROOT=full boots fast.cpio
# instead (every program of the image).
matrix_vendor_cpio() {
	local img=$1 all root kver p f l t n key out
	if [ "${MODULE_GUEST_ROOT:-small}" = full ]; then
		matrix_fast_cpio "$img"
		return
	fi
	key=$({ printf '%s\n' "$VENDOR_ROOT_PKGS"; declare -f matrix_vendor_cpio; } | sha256sum | cut -c1-12)
	out=$img/vendor-root-$key.cpio
	if [ -s "$out" ] && [ "$out" -nt "$img/image.cpio" ]; then
		printf '%s\n' "$out"
		return 0
	fi
	need_pkgs readelf:binutils
	all=$(mktemp -d "$img/vendor-all.XXXXXX")
	root=$(mktemp -d "$img/vendor-root.XXXXXX")
	(cd "$all" && cpio -idm --quiet --no-absolute-filenames <"$img/image.cpio") || { rm -rf "$all" "$root"; return 1; }
	# shellcheck disable=SC1091
	kver=$(. "$img/image-info.env" && printf '%s' "$KVER")
	(
		cd "$all" || exit 1
		{
			# the top-level links of a merged /usr (bin -> usr/bin, ...), /etc
			find . -mindepth 1 -maxdepth 1 -type l -printf '%P\n'
			find etc ! -type d
			for p in $VENDOR_ROOT_PKGS; do
				for l in "$img/dpkg-lists/$p.list" "$img/dpkg-lists/$p:amd64.list"; do
					[ ! -f "$l" ] || sed 's|^/||' "$l"
				done
			done | grep -vE '^usr/share/(doc|man|info|locale|lintian|bash-completion|zoneinfo|i18n)/|/gconv/' |
				while IFS= read -r f; do
					[ -n "$f" ] || continue
					# the path in the image (directories resolved, /bin/cat -> usr/bin/cat)
					f=$(realpath -m --relative-to=. "$(dirname "$f")")/${f##*/}
					f=${f#./}
					# shared libraries: only those a kept program needs (below)
					case "$f" in usr/lib/x86_64-linux-gnu/*.so | usr/lib/x86_64-linux-gnu/*.so.*) continue ;; esac
					if [ -L "$f" ] || [ -f "$f" ]; then printf '%s\n' "$f"; fi
				done
			find usr/bin usr/sbin -maxdepth 1 -type l 2>/dev/null || true
			find "usr/lib/modules/$kver" -maxdepth 1 -name 'modules.*'
			mod_closure "usr/lib/modules/$kver" "$FAST_MODULES" | sed "s|^|usr/lib/modules/$kver/|"
		} | LC_ALL=C sort -u | cpio -pdm --quiet "$root"
	) || { rm -rf "$all" "$root"; return 1; }
	(
		cd "$root" || exit 1
		# links that land nowhere in this root (an alternative whose program was left out)
		for l in usr/bin/* usr/sbin/*; do
			[ -L "$l" ] || continue
			t=$l n=0
			while [ -L "$t" ] && [ "$n" -lt 10 ]; do
				f=$(readlink "$t")
				case "$f" in /*) t=${f#/} ;; *) t=$(dirname "$t")/$f ;; esac
				n=$((n + 1))
			done
			[ -e "$t" ] || rm -f "$l"
		done
		# the libraries the kept programs need, from the image, until nothing is added
		n=1
		while [ "$n" -gt 0 ]; do
			n=0
			while IFS= read -r l; do
				[ ! -e "usr/lib/x86_64-linux-gnu/$l" ] || continue
				[ -e "$all/usr/lib/x86_64-linux-gnu/$l" ] || continue
				# the name and, for a link, the file it lands on
				(cd "$all" && printf '%s\n' "usr/lib/x86_64-linux-gnu/$l" \
					"$(realpath --relative-to=. "usr/lib/x86_64-linux-gnu/$l")" | sort -u |
					cpio -pdm --quiet "$root") || exit 1
				n=$((n + 1))
			done < <(needed_sonames)
		done
	) || { rm -rf "$all" "$root"; return 1; }
	rm -rf "$all"
	if [ ! -x "$root/usr/bin/bash" ]; then
		echo "the vendor root made from $img has no bash (no dpkg-lists/bash.list?)" >&2
		rm -rf "$root"
		return 1
	fi
	rm -f "$img"/vendor-root*.cpio
	make_cpio "$root" "$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$root"
	printf '%s\n' "$out"
}
