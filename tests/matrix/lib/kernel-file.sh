# shellcheck shell=bash
# The kernel file QEMU boots for an image (lib/image.sh).

# matrix_kernel_to_boot IMG - the kernel file QEMU boots for IMG (prints its path):
# IMG/image.vmlinux, the uncompressed kernel taken once from image.vmlinuz, when it has a PVH
# entry point (the ELF note XEN_ELFNOTE_PHYS32_ENTRY, CONFIG_PVH: Debian's kernels); else
# image.vmlinuz. QEMU starts such an ELF kernel at that entry, so the guest does not
# decompress itself: under TCG that took 1.2 s of trixie's boot (zstd). The payload is found
# through the bzImage header (setup_sects, payload_offset, payload_length), decompressed by
# its magic, and kept only if it is an ELF file of the size the payload's last 4 bytes give.
# A kernel built with KASAN (the debug one-arg kernels) boots its bzImage: started at the PVH
# entry it faults before its first message (the entry runs before KASAN's early shadow is set
# up), so QEMU exits at once with an empty console. CDEV_MATRIX_PVH=0 boots image.vmlinuz.
matrix_kernel_to_boot() {
	local img=$1
	local z=$img/image.vmlinuz out=$img/image.vmlinux setup off len magic tool size notes
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
		[[ $notes == *"(0x00000012)"* || $notes == *PHYS32_ENTRY* ]] &&
		! grep -q "KernelAddressSanitizer initialized" "$out.tmp.$$"; then
		mv "$out.tmp.$$" "$out"
		printf '%s\n' "$out"
	else
		rm -f "$out.tmp.$$"
		: >"$out.none"
		printf '%s\n' "$z"
	fi
}
