# shellcheck shell=bash
# The initramfs files a guest boots, made once per image from its image.cpio (lib/image.sh):
# the fast path's fast.cpio and a vendor run's smaller root.

# matrix_mod_closure MODDIR NAME... - the paths (relative to MODDIR, from its modules.dep) of the
# modules NAME and everything they depend on; names not in modules.dep (built in, or none)
# are left out.
matrix_mod_closure() {
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

# matrix_needed_sonames - in the current directory (a root), the sonames its programs and libraries
# (usr/bin, usr/sbin, usr/lib, usr/libexec) name as ELF NEEDED, one per line, sorted.
matrix_needed_sonames() {
	find usr/bin usr/sbin usr/lib usr/libexec -type f \( -perm -u+x -o -name '*.so*' \) \
		-size +0 -print0 2>/dev/null | xargs -0 -r readelf -d 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u
}

# matrix_prune_libs - in the current directory (a root), remove the libraries of
# usr/lib/x86_64-linux-gnu that no ELF file there names as NEEDED (glibc's own and NSS modules
# stay); true when it removed any.
matrix_prune_libs() {
	local f n removed=1 needed
	needed=$(matrix_needed_sonames)
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
	local img=$1 tmp kver f
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
	# shellcheck disable=SC1091,SC2153 # KVER: from the image's image-info.env
	kver=$(. "$img/image-info.env" && printf '%s' "$KVER")
	(
		cd "$tmp" || exit 1
		# the kernel's modules: only FAST_MODULES and their dependencies
		cd "usr/lib/modules/$kver" || exit 1
		find kernel -type f | LC_ALL=C sort >"$tmp.all"
		matrix_mod_closure . "$FAST_MODULES" | LC_ALL=C sort >"$tmp.keep"
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
		while matrix_prune_libs; do :; done
	)
	overlay_make_cpio "$tmp" "$img/fast.cpio.tmp" && mv "$img/fast.cpio.tmp" "$img/fast.cpio"
	rm -rf "$tmp"
	printf '%s\n' "$img/fast.cpio"
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
			matrix_mod_closure "usr/lib/modules/$kver" "$FAST_MODULES" | sed "s|^|usr/lib/modules/$kver/|"
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
			done < <(matrix_needed_sonames)
		done
	) || { rm -rf "$all" "$root"; return 1; }
	rm -rf "$all"
	if [ ! -x "$root/usr/bin/bash" ]; then
		echo "the vendor root made from $img has no bash (no dpkg-lists/bash.list?)" >&2
		rm -rf "$root"
		return 1
	fi
	rm -f "$img"/vendor-root*.cpio
	overlay_make_cpio "$root" "$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$root"
	printf '%s\n' "$out"
}
