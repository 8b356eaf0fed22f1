# shellcheck shell=bash
# The test side of the guest, appended to the image at boot as further cpio archives (the
# kernel unpacks concatenated archives in order), so editing a test never rebuilds an image:
#   common.cpio           tests/guest (runner, libraries, fast-path init, vendor runner; no
#                         tests.d), the systemd units, the static programs, test data
#   tests-<hash>.cpio     the tests.d scripts one kernel's row runs (suites.sh)
#   <kernel>/vendor.cpio  a vendor run's modules and test (vendor.sh)
# All under /usr/lib/cdev-compat in the guest.

# matrix_build_overlay - $MATRIX_DIR/overlay/common.cpio.
matrix_build_overlay() {
	local root=$MATRIX_DIR/overlay/root g=$CDEV_TOP/tests/guest c d
	rm -rf "$MATRIX_DIR/overlay"
	mkdir -p "$root/usr/lib/cdev-compat/bin" "$root/usr/lib/systemd/system"
	cp -r "$g" "$root/usr/lib/cdev-compat/guest"
	rm -rf "$root/usr/lib/cdev-compat/guest/tests.d"
	mkdir -p "$root/usr/lib/cdev-compat/guest/tests.d"
	cp "$g"/systemd/cdev-matrix.* "$root/usr/lib/systemd/system/"
	gcc -static -Os -Wall -Wextra -Werror -o "$root/usr/lib/cdev-compat/bin/cdev-debug-exit" \
		"$g/debug-exit.c" || die "cannot build the static exit helper (libc6-dev?)"
	gcc -static -Os -Wall -Wextra -Werror -o "$root/usr/lib/cdev-compat/bin/cdev-fast-mounts" \
		"$g/fast-mounts.c" || die "cannot build the fast path's mount helper"
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
	chmod 0755 "$root/usr/lib/cdev-compat/guest/fast-init.sh" "$root/usr/lib/cdev-compat/guest/vendor/run-vendor.sh"
	overlay_make_cpio "$root" "$MATRIX_DIR/overlay/common.cpio" || die "cannot build the test overlay cpio"
	matrix_say "guest side: $(find "$root/usr/lib/cdev-compat/bin" -type f | wc -l) programs," \
		"$(find "$g/tests.d" -name '[0-9][0-9]-*.sh' | wc -l) tests in tests.d"
}

# overlay_make_cpio DIR OUT - DIR's contents as a newc cpio owned by root, in a stable order.
overlay_make_cpio() {
	find "$1" -type d -exec chmod 0755 {} +
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2"
}

# matrix_tests_cpio SUITE K - prints the cpio with the tests.d scripts K's row runs
# (built once per distinct list). A listed test with no script is left out: the row then
# reports it missing.
matrix_tests_cpio() {
	local list hash out root t
	list=$(suite_tests "$1" "$2")
	hash=$(printf '%s\n' "$list" | sha256sum | cut -c1-12)
	out=$MATRIX_DIR/overlay/tests-$hash.cpio
	if [ ! -s "$out" ]; then
		root=$MATRIX_DIR/overlay/tests-$hash
		rm -rf "$root"
		mkdir -p "$root/usr/lib/cdev-compat/guest/tests.d"
		for t in $list; do
			[ ! -f "$CDEV_TOP/tests/guest/tests.d/$t.sh" ] ||
				cp "$CDEV_TOP/tests/guest/tests.d/$t.sh" "$root/usr/lib/cdev-compat/guest/tests.d/"
		done
		overlay_make_cpio "$root" "$out" || die "cannot build $out"
	fi
	printf '%s\n' "$out"
}
