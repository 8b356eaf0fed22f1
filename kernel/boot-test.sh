#!/bin/bash
# Prove the one-arg kernel works: boot it in QEMU with a busybox initramfs and check that
#  - it boots, and /proc/devices lists char majors;
#  - kernel/test-module, built out of tree against the produced linux-headers .deb with the
#    one-arg spelling unregister_chrdev(major), loads, registers a dynamic major (shown in
#    /proc/devices, readable through a device node), unregisters and unloads;
#  - the same module with the two-arg spelling and no compat header fails to build against
#    those headers (host-side compile).
# QEMU uses KVM only if a short probe boot with it succeeds, else TCG. The guest reports through
# isa-debug-exit (and the console, kept in $BUILD_DIR/kernel/boot-test-<base>-<flavour>/console.log).
# Prints TAP-like lines and ends with "boot-test: PASS" or "boot-test: FAIL".
#
#   kernel/boot-test.sh [--base BASE] [debug|nodebug]
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

need_pkgs qemu-system-x86_64:qemu-system-x86 /bin/busybox:busybox-static cpio:cpio \
	gzip:gzip dpkg-deb:dpkg make:build-essential gcc:build-essential
BOOT_TIMEOUT=${BOOT_TIMEOUT:-600}

base_args "$@"
flavour=${BASE_ARGS_LEFT[0]:-debug}
# The kernel (a warm build-kernel.sh takes a fraction of a second).
mapfile -t outs < <("$KERNEL_DIR/build-kernel.sh" --base "$BASE" "$flavour")
vmlinuz='' hdeb=''
for f in "${outs[@]}"; do
	case "${f##*/}" in
	vmlinuz) vmlinuz=$f ;;
	linux-headers-*.deb) hdeb=$f ;;
	esac
done
{ [ -n "$vmlinuz" ] && [ -n "$hdeb" ]; } || die "build-kernel.sh gave no vmlinuz / headers .deb"
rel=$(dpkg-deb -f "$hdeb" Package)
rel=${rel#linux-headers-}

out=$BUILD_DIR/kernel/boot-test-$BASE-$flavour
rm -rf "$out"
mkdir -p "$out"
n=0
fail=0
report() { # report OK|FAIL DESCRIPTION
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

# Host side: unpack the headers .deb and build the module against it, both spellings.
dpkg-deb -x "$hdeb" "$out/headers"
kdir=$out/headers/usr/src/linux-headers-$rel
[ -f "$kdir/Makefile" ] || die "no $kdir/Makefile in $hdeb"
for variant in onearg twoarg; do
	mkdir -p "$out/$variant"
	cp "$KERNEL_DIR/test-module/onearg_test.c" "$KERNEL_DIR/test-module/Kbuild" "$out/$variant/"
done
if make -C "$kdir" M="$out/onearg" modules >"$out/onearg/build.log" 2>&1 &&
	[ -f "$out/onearg/onearg_test.ko" ]; then
	report OK "module with unregister_chrdev(major) builds against ${hdeb##*/}"
else
	report FAIL "module with unregister_chrdev(major) builds against ${hdeb##*/} (log: $out/onearg/build.log)"
fi
if make -C "$kdir" M="$out/twoarg" ONEARG_TEST_TWOARG=y modules >"$out/twoarg/build.log" 2>&1; then
	report FAIL "module with unregister_chrdev(major, name) must not build against these headers"
elif grep -q "too many arguments to function .unregister_chrdev." "$out/twoarg/build.log"; then
	report OK "module with unregister_chrdev(major, name) fails to build: too many arguments to function 'unregister_chrdev'"
else
	report FAIL "two-arg module failed to build, but not at unregister_chrdev (log: $out/twoarg/build.log)"
fi
vermagic=$(modinfo -F vermagic "$out/onearg/onearg_test.ko" 2>/dev/null || true)

# The initramfs: static busybox, the module, and an /init that runs the guest checks.
root=$out/initramfs
mkdir -p "$root"/{bin,dev,proc,sys,tmp}
# The guest's exit status goes out through isa-debug-exit with an outb (no /dev/port needed: the
# guest-sized kernels have none, and no ACPI power-off either).
gcc -static -Os -Wall -Wextra -Werror -o "$root/bin/cdev-debug-exit" "$CDEV_TOP/tests/guest/debug-exit.c" ||
	die "cannot build tests/guest/debug-exit.c"
cp /bin/busybox "$root/bin/busybox"
[ -f "$out/onearg/onearg_test.ko" ] && cp "$out/onearg/onearg_test.ko" "$root/"
cat >"$root/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exit_qemu() { # isa-debug-exit at 0xf4: QEMU exits with (value << 1) | 1
	/bin/cdev-debug-exit "\$1"
	poweroff -f
}
if grep -q cdev_kvm_probe /proc/cmdline; then exit_qemu 000; fi
n=0 fail=0
t() { n=\$((n + 1)); d=\$1; shift; if "\$@"; then echo "GUEST ok \$n - \$d"; else echo "GUEST not ok \$n - \$d"; fail=1; fi; }
t "uname -r is $rel (\$(uname -r))" [ "\$(uname -r)" = "$rel" ]
chars=\$(sed -n '/^Character devices:/,/^\$/p' /proc/devices | grep -cE '^ *[0-9]+ ')
t "/proc/devices lists \$chars char majors" [ "\$chars" -gt 0 ]
sed -n '/^Character devices:/,/^\$/p' /proc/devices
t "insmod onearg_test.ko (unsigned, vermagic $vermagic)" insmod /onearg_test.ko
major=\$(awk '\$2 == "onearg_test" { print \$1 }' /proc/devices)
t "register_chrdev(0, ...) gave dynamic major \$major, listed in /proc/devices" [ -n "\$major" ]
t "device node c \$major 0 reads back through the fops" sh -c "mknod /dev/onearg c \$major 0 && [ \\"\\\$(cat /dev/onearg)\\" = cdev-onearg ]"
rm -f /dev/onearg
t "rmmod onearg_test (unregister_chrdev(major))" rmmod onearg_test
t "major \$major gone from /proc/devices" sh -c "! grep -qw onearg_test /proc/devices"
t "module gone from /proc/modules" sh -c "! grep -qw onearg_test /proc/modules"
mount -t debugfs debugfs /sys/kernel/debug
t "debug options live: kmemleak, failslab, fail_page_alloc, lockdep" sh -c "[ -e /sys/kernel/debug/kmemleak ] && [ -d /sys/kernel/debug/failslab ] && [ -d /sys/kernel/debug/fail_page_alloc ] && [ -e /proc/lockdep ]"
t "no WARNING/BUG/lockdep splat in dmesg" sh -c "! dmesg | grep -E 'WARNING:|BUG:|possible recursive locking|possible circular locking|inconsistent lock state'"
if [ "\$fail" -eq 0 ]; then echo "GUEST-RESULT: PASS"; exit_qemu 000; else echo "GUEST-RESULT: FAIL"; exit_qemu 001; fi
EOF
chmod +x "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.cpio.gz"

qemu() { # qemu ACCEL CONSOLE_LOG TIMEOUT EXTRA_APPEND
	local rc=0
	timeout "$3" qemu-system-x86_64 -accel "$1" -machine q35 -cpu max -m 1024 -smp 2 \
		-nographic -no-reboot -kernel "$vmlinuz" -initrd "$out/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=4 no_timer_check $4" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		</dev/null >"$2" 2>&1 || rc=$?
	return "$rc"
}

# KVM only if a short probe boot with it works.
accel=tcg
if [ -w /dev/kvm ]; then
	prc=0
	(qemu kvm "$out/kvm-probe.log" 30 cdev_kvm_probe) 2>/dev/null || prc=$?
	[ "$prc" -eq 1 ] && accel=kvm
fi
if [ "$accel" = kvm ]; then
	echo "# accelerator: kvm (probe boot worked)"
else
	echo "# accelerator: tcg (KVM unavailable or its probe boot failed; log: $out/kvm-probe.log)"
fi

start=$(date +%s)
rc=0
qemu "$accel" "$out/console.log" "$BOOT_TIMEOUT" "" || rc=$?
secs=$(($(date +%s) - start))
tr -d '\r' <"$out/console.log" | grep '^GUEST ' | sed 's/^GUEST //' | while read -r status rest; do
	case "$status" in
	ok) echo "ok (guest) $rest" ;;
	*) echo "not ok (guest) ${rest#ok }" ;;
	esac
done
if [ "$rc" -eq 1 ] && grep -q '^GUEST-RESULT: PASS' <(tr -d '\r' <"$out/console.log"); then
	report OK "guest $rel booted ($accel) and passed its checks in ${secs}s"
else
	case "$rc" in
	124) why="timed out after ${BOOT_TIMEOUT}s" ;;
	3) why="guest checks failed" ;;
	0) why="guest rebooted or panicked before reporting" ;;
	*) why="qemu exit status $rc" ;;
	esac
	report FAIL "guest boot ($accel): $why after ${secs}s; console: $out/console.log"
fi
echo "# boot+test time: ${secs}s ($accel); console log: $out/console.log"

if [ "$fail" -eq 0 ]; then
	echo "boot-test: PASS"
else
	echo "boot-test: FAIL (console log: $out/console.log)"
	exit 1
fi
