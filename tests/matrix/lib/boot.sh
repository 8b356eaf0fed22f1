# shellcheck shell=bash
# QEMU boots: direct kernel boot of the image's kernel with the image and the test archives
# as one initramfs; TCG unless KVM passed the probe. KTAP comes back on the virtio-serial port
# org.cdev-compat.ktap (console as fallback), the status through isa-debug-exit: QEMU exit
# 33 = passed, 35 = a test failed, 37 = runner error; 0/1/other = no status.
#
# Two ways into the tests, in the same images:
#   fast     rdinit=/usr/lib/cdev-compat/guest/fast-init.sh: the test runner is PID 1's child
#            right after the kernel; no systemd, no udev (devtmpfs makes the nodes)
#   systemd  rdinit=/sbin/init systemd.unit=cdev-matrix.target: the image builders' path
# Every kernel boots with slub_debug=FZP page_poison=1 (use-after-free and overflow checks of
# the slab and page allocators: sanity checks, red zones, poison). Not U (the owner's stack
# trace in every object): under TCG it costs 3 s of a 13 s vendor boot, and the reports name
# the object and the code that hit it without it. CDEV_MATRIX_SLUB_DEBUG=FLAGS boots with
# slub_debug=FLAGS instead (e.g. FZPU, to see who allocated and freed an object), 0 without
# either option (to measure their cost).

# matrix_boot_timeout K - seconds before K's guest counts as hung: CDEV_MATRIX_BOOT_TIMEOUT
# (default 600, a vendor run 120 + its test timeout), times K's timeout_factor (3 for the debug
# one-arg kernels: lockdep and kmemleak make them several times slower under TCG, more so on
# a loaded machine).
matrix_boot_timeout() {
	local t=${CDEV_MATRIX_BOOT_TIMEOUT:-}
	if [ -z "$t" ]; then
		if [ "$MODE" = vendor ]; then t=$((120 + VENDOR_TEST_TIMEOUT)); else t=600; fi
	fi
	echo "$((t * $(kernel_field "$1" timeout_factor)))"
}

# matrix_start_timeout K - seconds K's guest has to start its test runner (its "KTAP version" line
# on the virtio port or the console): CDEV_MATRIX_START_TIMEOUT, default 120 through the fast
# init and 300 through systemd, times K's timeout_factor (as the boot timeout). A guest that has
# not started it by then never reached code under test (nothing of ours or the vendor's is
# loaded before it): it is killed as hung there, not at the whole boot timeout (1800 s on a debug
# kernel). Seen on a slow host: the fast init starts the runner 11 s into a debug kernel's boot;
# systemd took more than 300 s on both debug kernels with three guests on two cores.
matrix_start_timeout() {
	local t=${CDEV_MATRIX_START_TIMEOUT:-}
	if [ -z "$t" ]; then
		if [ "$INIT" = systemd ]; then t=300; else t=120; fi
	fi
	[[ $t =~ ^[1-9][0-9]*$ ]] || die "CDEV_MATRIX_START_TIMEOUT is a number of seconds >= 1 (got '$t')"
	echo "$((t * $(kernel_field "$1" timeout_factor)))"
}

# matrix_cmdline INIT RUN K - the kernel command line for kernel K's boot through INIT
# (fast|systemd) whose runner is RUN (suite|vendor). In a suite run, each guest script may take
# K's script_timeout when it has one (the debug kernels: 75-migrated-corpus took more than the
# runner's default 600 s there on a loaded machine, before it became one program). The functional
# suite's guests bring up one of their two vCPUs (maxcpus=1, see matrix_smp).
matrix_cmdline() {
	# no_timer_check: under TCG on a busy host the kernel's IO-APIC timer check can miss its
	# ticks and panic ("IO-APIC + timer doesn't work!"; seen on onearg at load 5).
	# log_buf_len: the lifetime stress test's 10,000 rounds log a delayed release each on the
	# debug kernels; the kernel log must still hold the whole run for 99-kernel-log.
	local c="console=ttyS0 panic=-1 loglevel=5 log_buf_len=8M mitigations=off no_timer_check"
	local script_timeout=
	[ -z "${3:-}" ] || [ "$2" != suite ] || script_timeout=$(kernel_field "$3" script_timeout)
	[ -z "$script_timeout" ] || c+=" cdev_script_timeout=$script_timeout"
	[ "$2" != suite ] || [ "${SUITE:-}" != functional ] || [ -n "${CDEV_MATRIX_SMP:-}" ] ||
		c+=" maxcpus=1"
	local slub=${CDEV_MATRIX_SLUB_DEBUG:-FZP}
	[ "$slub" = 0 ] || c+=" slub_debug=$slub page_poison=1"
	case "$1" in
	# cryptomgr.notests: no self-tests of the kernel's crypto algorithms at boot (1.6 s of a 9 s
	# vendor boot on trixie under TCG; they test the kernel's crypto, nothing a test here uses).
	fast) c+=" rdinit=/usr/lib/cdev-compat/guest/fast-init.sh cdev.run=$2 cryptomgr.notests=1" ;;
	systemd) c+=" rdinit=/sbin/init systemd.unit=cdev-matrix.target systemd.firstboot=no systemd.show_status=auto" ;;
	*) die "unknown init '$1' (fast, systemd)" ;;
	esac
	printf '%s %s\n' "$c" "${CDEV_MATRIX_APPEND:-}"
}

# matrix_smp - QEMU's -smp for this run: CDEV_MATRIX_SMP, else one vCPU for a vendor run, two
# for the suites. The functional suite's kernels bring up only the first (maxcpus=1 from
# matrix_cmdline): under TCG a second running vCPU made that suite a quarter slower (two guests
# run at once on two cores), but its tests need a second possible CPU (the corpus's corp_range
# sizes itself by num_possible_cpus()), and the stress test of soak races two running ones.
matrix_smp() {
	if [ -n "${CDEV_MATRIX_SMP:-}" ]; then
		echo "$CDEV_MATRIX_SMP"
	elif [ "$MODE" = vendor ]; then
		echo 1
	else
		echo 2
	fi
}

# matrix_boot K KDIR IMG CMDLINE CPIO... - boot IMG's kernel with the CPIOs concatenated as the
# initramfs; sets BOOT_RC, BOOT_S, BOOT_STATUS (ok|tests_failed|runner_error|hang|
# no_exit_status|qemu_error), GUEST_STATUS, and BOOT_START_LATE (the start timeout, when the guest
# was killed for not starting its test runner in time; empty otherwise).
# shellcheck disable=SC2034,SC2153 # BOOT_S, BOOT_STATUS: its results, read by lib/run-kernel.sh; ACCEL: set by matrix_pick_accel
matrix_boot() {
	local k=$1 kdir=$2 img=$3 cmdline=$4 mem size accel t0 timeout
	shift 4
	timeout=$(matrix_boot_timeout "$k")
	cat "$@" >"$kdir/initrd.cpio"
	size=$(($(stat -c %s "$kdir/initrd.cpio") / 1048576))
	# RAM: the initramfs twice (the archive, then its files in tmpfs) plus room for the tests;
	# no more (every page is poisoned when the kernel frees it at boot: page_poison=1).
	if [ "$INIT" = fast ]; then
		mem=$(((size * 3 + 256 + 127) / 128 * 128))
		[ "$mem" -ge 512 ] || mem=512
	else
		mem=$(((size * 2 + 768 + 255) / 256 * 256))
	fi
	[ "$ACCEL" != probe ] || matrix_probe_kvm "$img/image.vmlinuz"
	if [ "$ACCEL" = kvm ]; then
		accel=(-accel kvm -cpu host)
	else
		# la57=off: 4-level paging. With 5-level paging the 7.3 KASAN kernel reported a
		# wild-memory-access in an interrupt that came in while identify_cpu() ran at 0.007 s
		# (an address of the 5-level direct map, 0xff11...), before anything under test; two
		# boots of about four on a slow host. Nothing here tests the paging mode.
		accel=(-accel "tcg,thread=multi" -cpu "max,la57=off")
	fi
	: >"$kdir/console.log"
	: >"$kdir/ktap.txt"
	local smp
	smp=$(matrix_smp)
	local cmd=(qemu-system-x86_64 -machine q35 "${accel[@]}" -smp "$smp" -m "$mem"
		-nodefaults -display none -no-reboot -monitor none
		-chardev "file,id=con,path=$kdir/console.log" -serial chardev:con
		-device "isa-debug-exit,iobase=0xf4,iosize=0x04"
		-device virtio-serial-pci
		-chardev "file,id=ktap,path=$kdir/ktap.txt"
		-device "virtserialport,chardev=ktap,name=org.cdev-compat.ktap"
		-kernel "$(cat "$kdir/boot-kernel" 2>/dev/null || echo "$img/image.vmlinuz")" -initrd "$kdir/initrd.cpio" -append "$cmdline")
	printf '%q ' "${cmd[@]}" >"$kdir/qemu.cmd"
	echo >>"$kdir/qemu.cmd"
	t0=$(date +%s.%N)
	BOOT_RC=0 BOOT_START_LATE=
	local start_timeout pid waited=0
	start_timeout=$(matrix_start_timeout "$k")
	timeout --kill-after=10 "$timeout" "${cmd[@]}" </dev/null >"$kdir/qemu.log" 2>&1 &
	pid=$!
	# Until the runner has started: kill the guest at the start timeout.
	while kill -0 "$pid" 2>/dev/null && ! matrix_runner_started "$kdir"; do
		if [ "$waited" -ge "$start_timeout" ]; then
			BOOT_START_LATE=$start_timeout
			kill -TERM "$pid" 2>/dev/null || true
			break
		fi
		sleep 1
		waited=$((waited + 1))
	done
	wait "$pid" || BOOT_RC=$?
	BOOT_S=$(elapsed "$t0")
	rm -f "$kdir/initrd.cpio"
	GUEST_STATUS=
	if [ -n "$BOOT_START_LATE" ]; then
		BOOT_RC=124 BOOT_STATUS=hang
	elif [ "$BOOT_RC" -eq 124 ] || [ "$BOOT_RC" -eq 137 ]; then
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

# matrix_ktap KDIR - KDIR/ktap.txt if the guest wrote KTAP to the virtio port, else what reached
# the console (KDIR/ktap-console.txt); prints the file to parse.
matrix_ktap() {
	local kdir=$1
	if grep -qE '^(not )?ok [0-9]' "$kdir/ktap.txt" 2>/dev/null; then
		printf '%s\n' "$kdir/ktap.txt"
		return 0
	fi
	tr -d '\r' <"$kdir/console.log" | sed -E 's/^\[ *[0-9.]+\] [^:]*: //' |
		grep -aE '^(    )?(KTAP version|1\.\.|(not )?ok [0-9]|# )' >"$kdir/ktap-console.txt" || true
	printf '%s\n' "$kdir/ktap-console.txt"
}
