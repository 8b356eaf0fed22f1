# shellcheck shell=bash
# One kernel's run, in two halves: matrix_prepare_kernel (serial: image, then the tests or the
# vendor build) and matrix_boot_kernel (in the background: boot, read KTAP, decide the row).
# Their state is kept in KDIR/result.env (lib/result.sh).

# matrix_fail_kernel K KDIR MESSAGE - K's row failed for MESSAGE: written, said, status 1.
matrix_fail_kernel() {
	R_MSG=$3
	[ "${R_FAILED:-0}" -gt 0 ] || R_FAILED=1
	[ "$R_STATUS" = hang ] || R_STATUS=fail
	matrix_result_write "$2"
	matrix_say "$1: FAILED: $R_MSG"
	return 1
}

# matrix_prepare_kernel K - image, then (suite) the tests cpio or (vendor) the module's build;
# result.env has R_STATUS=prepared when K is ready to boot.
# shellcheck disable=SC2034,SC2153 # R_*, CELL_*: K's result fields (lib/result.sh), written to result.env; KRESOLVED, IMAGE_CACHED: matrix_image's results
matrix_prepare_kernel() {
	local k=$1 kdir=$MATRIX_DIR/$1 st
	rm -rf "$kdir"
	mkdir -p "$kdir"
	matrix_result_reset "$k" "$kdir"
	# The init is the kernel's own in a suite run (lib/suites.sh suite_init); INIT is a global
	# of this subshell and, through result.env, of the boot's.
	[ "$MODE" != suite ] || INIT=$(suite_init "$SUITE" "$k")
	R_T0=$(date +%s.%N) R_INIT=$INIT R_FAILED=0 R_MSG=''

	if ! matrix_image "$k" "$kdir"; then
		CELL_build=fail MSG_build="no image: ${IMAGE_ERROR%%$'\n'*}"
		matrix_fail_kernel "$k" "$kdir" "$IMAGE_ERROR"
		return 1
	fi
	# shellcheck disable=SC1091
	. "$IMG/image-info.env"
	R_IMG=$IMG
	R_KRESOLVED=$KRESOLVED
	R_VERSION="$KVER (${KVERSION:-$KPKG_VERSION})"
	R_IMAGE_S=$IMAGE_BUILD_S
	R_IMAGE_CACHED=$IMAGE_CACHED
	R_DKMS_S=$DKMS_BUILD_S
	matrix_say "$k: image: $([ "$R_IMAGE_CACHED" = yes ] && echo cached || echo "built in ${IMAGE_BUILD_S}s") $KVER," \
		"$DKMS_MODULES dkms-installed (dkms ${DKMS_BUILD_S}s), legacy drivers ${LEGACY_BUILD_S:-?}s," \
		"$(($(stat -c %s "$IMG/image.cpio") / 1048576)) MiB"

	# The image the guest boots: the fast path's small initramfs, or the whole image for systemd.
	# A vendor run boots a smaller root still (the few programs a module's test needs).
	if [ "$INIT" = fast ]; then
		st=$(date +%s.%N)
		if [ "$MODE" = vendor ]; then
			matrix_vendor_cpio "$IMG" >"$kdir/base-cpio"
		else
			matrix_fast_cpio "$IMG" >"$kdir/base-cpio"
		fi
		STEP_SECS=$(elapsed "$st") matrix_step "$k" initramfs "$(($(stat -c %s "$(cat "$kdir/base-cpio")") / 1048576)) MiB for the fast path$([ "$MODE" = suite ] || echo ", vendor root")"
	else
		printf '%s\n' "$IMG/image.cpio" >"$kdir/base-cpio"
	fi
	st=$(date +%s.%N)
	matrix_kernel_to_boot "$IMG" >"$kdir/boot-kernel"
	STEP_SECS=$(elapsed "$st") matrix_step "$k" kernel "$(case "$(cat "$kdir/boot-kernel")" in
		*.vmlinux) echo "uncompressed, started at its PVH entry" ;;
		*) echo "bzImage (no PVH entry)" ;; esac)"

	if [ "$MODE" = suite ]; then
		R_REQUIRED=$(suite_tests "$SUITE" "$k" | tr '\n' ' ')
		matrix_tests_cpio "$SUITE" "$k" >"$kdir/tests-cpio"
	else
		st=$(date +%s.%N)
		if vendor_build "$k" "$kdir"; then
			STEP_SECS=$(elapsed "$st") matrix_step "$k" build "ok, $WARNINGS warnings (log $kdir/build.log)"
		else
			STEP_SECS=$(elapsed "$st") matrix_step "$k" build "FAILED: $MSG_build (log $kdir/build.log)"
			R_FAILED=1
			matrix_fail_kernel "$k" "$kdir" "build: $MSG_build" || true
			return 1
		fi
	fi
	R_STATUS=prepared
	matrix_result_write "$kdir"
}

# matrix_boot_kernel K - boot the prepared kernel, read its KTAP, decide the row.
# shellcheck disable=SC2034,SC2153 # R_*: K's result fields (lib/result.sh); BOOT_S: matrix_boot's result
matrix_boot_kernel() {
	local k=$1 kdir=$MATRIX_DIR/$1 parts ktap run cmdline report
	# shellcheck disable=SC1091
	. "$kdir/result.env"
	IMG=$R_IMG INIT=$R_INIT
	parts=("$(cat "$kdir/base-cpio")" "$MATRIX_DIR/overlay/common.cpio")
	if [ "$MODE" = suite ]; then
		parts+=("$(cat "$kdir/tests-cpio")")
		run=suite
	else
		parts+=("$kdir/vendor.cpio")
		run=vendor
	fi
	matrix_say "$k: boot: starting ($ACCEL, $INIT init, log $kdir/console.log)"
	cmdline=$(matrix_cmdline "$INIT" "$run" "$k")
	matrix_boot "$k" "$kdir" "$IMG" "$cmdline" "${parts[@]}"
	# A guest that hung before its test runner printed "KTAP version" never reached code under
	# test (no module of ours or the vendor's is loaded before it): a hang of the emulation or
	# of the distribution's boot. It gets one more boot; its console is kept and the report
	# says so. A hang after the runner started is the result. The same for a boot that failed
	# and whose kernel reported a bug before the runner started (an early-boot KASAN report of
	# the 7.3 debug kernel under TCG, at 0.007 s): a report after it is the result.
	R_RETRY=
	if [ "$BOOT_STATUS" = hang ] && ! matrix_runner_started "$kdir"; then
		mv "$kdir/console.log" "$kdir/console.hung-before-tests.log"
		R_RETRY="the first boot hung before the test runner started (killed after ${BOOT_S}s$(matrix_start_late_why); last console line: '$(matrix_last_console_line "$kdir/console.hung-before-tests.log")'; console: $kdir/console.hung-before-tests.log); the row is the second boot's"
		matrix_say "$k: boot: hung before the test runner started (${BOOT_S}s); booting once more"
		matrix_boot "$k" "$kdir" "$IMG" "$cmdline" "${parts[@]}"
	elif [ "$BOOT_STATUS" != ok ] && report=$(matrix_report_before_runner "$kdir"); then
		mv "$kdir/console.log" "$kdir/console.report-before-tests.log"
		R_RETRY="the first boot's kernel reported '$report' before the test runner started, with nothing under test loaded (status $BOOT_STATUS; console: $kdir/console.report-before-tests.log); the row is the second boot's"
		matrix_say "$k: boot: the kernel reported a bug before the test runner started ('$report'); booting once more"
		matrix_boot "$k" "$kdir" "$IMG" "$cmdline" "${parts[@]}"
	fi
	R_BOOT_S=$BOOT_S
	ktap=$(matrix_ktap "$kdir")
	ktap_tsv "$ktap" >"$kdir/results.tsv"
	ktap_top "$ktap" >"$kdir/top.tsv"
	R_PASSED=$(grep -c '^pass' "$kdir/results.tsv" || true)
	R_FAILED=$(grep -c '^fail' "$kdir/results.tsv" || true)
	R_SKIPPED=$(grep -c '^skip' "$kdir/results.tsv" || true)
	R_ARITY=$(awk -F'\t' '$1 == "probe" { if (match($2, /arity=[^ ]*/)) print substr($2, RSTART + 6, RLENGTH - 6) }' \
		"$kdir/results.tsv" | head -n1)
	R_ARITY=${R_ARITY:-?}
	STEP_SECS=$BOOT_S matrix_step "$k" boot "$BOOT_STATUS (qemu exit $BOOT_RC, $ACCEL):" \
		"$R_PASSED passed, $R_FAILED failed, $R_SKIPPED skipped"
	if [ "$MODE" = suite ]; then
		matrix_suite_decide "$k" "$kdir"
	else
		matrix_vendor_decide "$k" "$kdir"
	fi
}

# matrix_last_console_line FILE - FILE's last line with text in it, without terminal control
# sequences and carriage returns, at most 160 characters.
matrix_last_console_line() {
	sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\r//g' "$1" | grep -a '[[:alnum:]]' | tail -n 1 | cut -c1-160
}

# matrix_report_before_runner KDIR - the first line of KDIR's console that reports a kernel bug
# (the pattern of tests.d/99-kernel-log) before the test runner's "KTAP version" line; status 1
# when there is none, or when the console has no such line to tell before from after.
matrix_report_before_runner() {
	local re='WARNING:|BUG:|Oops|general protection fault|kernel BUG|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|UBSAN:|KASAN:'
	local line
	line=$(sed 's/\r//g' "$1/console.log" 2>/dev/null |
		awk -v re="$re" '/KTAP version/ { if (first != "") print first; exit }
			first == "" && $0 ~ re { first = substr($0, 1, 160) }')
	[ -n "$line" ] || return 1
	printf '%s\n' "$line"
}

# matrix_runner_started KDIR - the guest's test runner began: its "KTAP version" line reached the
# virtio port or the console.
matrix_runner_started() {
	grep -aq 'KTAP version' "$1/ktap.txt" "$1/console.log" 2>/dev/null
}

# matrix_start_late_why - ", no KTAP version line within Ns (CDEV_MATRIX_START_TIMEOUT)" when the
# last boot was killed for not starting its test runner in time (lib/boot.sh); nothing otherwise.
matrix_start_late_why() {
	[ -z "${BOOT_START_LATE:-}" ] ||
		printf ', no KTAP version line within %ss (CDEV_MATRIX_START_TIMEOUT)' "$BOOT_START_LATE"
}

# matrix_boot_problem K KDIR - why K's boot itself went wrong (hang, no status, ...), with the
# last console lines printed; empty when the guest exited with a status.
matrix_boot_problem() {
	local k=$1 kdir=$2
	case "$BOOT_STATUS" in
	ok | tests_failed) return 0 ;;
	hang)
		if [ -n "${BOOT_START_LATE:-}" ]; then
			matrix_say "$k: guest hung before its test runner started (killed after ${BOOT_S}s$(matrix_start_late_why)); last console lines:" >&2
		else
			matrix_say "$k: guest hung (killed after $(matrix_boot_timeout "$k")s); last console lines:" >&2
		fi
		tail -n 25 "$kdir/console.log" | sed 's/^/    | /' >&2
		# Where it stopped, for a report read without the console (a CI log): the last line
		# the guest printed that is not an empty one.
		echo "hang: no result after ${BOOT_S}s$(matrix_start_late_why); last console line: '$(matrix_last_console_line "$kdir/console.log")' (console: $kdir/console.log)"
		;;
	*)
		matrix_say "$k: last console lines:" >&2
		grep -av ' ok [0-9]' "$kdir/console.log" | tail -n 25 | sed 's/^/    | /' >&2
		echo "$BOOT_STATUS (console: $kdir/console.log, ktap: $kdir/ktap.txt)"
		;;
	esac
}

# matrix_suite_decide K KDIR - K's row passes only when the guest exited with "passed", every
# required test ran, none was skipped, and nothing failed.
# shellcheck disable=SC2034 # R_*: K's result fields (lib/result.sh), written to result.env
matrix_suite_decide() {
	local k=$1 kdir=$2 counts req_m problem
	# shellcheck disable=SC2086
	counts=$(ktap_required_check "$kdir/top.tsv" $R_REQUIRED)
	read -r _ _ _ _ req_m <<<"$(head -n1 <<<"$counts")"
	R_MISSING=$req_m
	R_NOTPASSED=$(tail -n +2 <<<"$counts" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	problem=$(matrix_boot_problem "$k" "$kdir")
	if [ "$BOOT_STATUS" = hang ]; then
		R_STATUS=hang
		matrix_fail_kernel "$k" "$kdir" "$problem"
	elif [ -n "$problem" ]; then
		matrix_fail_kernel "$k" "$kdir" "$problem"
	elif [ "$BOOT_STATUS" != ok ] || [ "$R_FAILED" -gt 0 ] || [ -n "$R_NOTPASSED" ]; then
		matrix_fail_kernel "$k" "$kdir" "${R_NOTPASSED:-$R_FAILED failed}${R_NOTPASSED:+ (required: $(wc -w <<<"$R_REQUIRED"))}" \
			"(console: $kdir/console.log)"
	else
		R_STATUS=pass
		matrix_result_write "$kdir"
	fi
}

# matrix_vendor_decide K KDIR - K's load/test/unload/log cells from the guest's four results; a
# hung guest makes the cell it was in "hang" and the later ones "-".
matrix_vendor_decide() {
	local k=$1 kdir=$2 c r why last problem v m
	for c in load test unload log; do
		r=$(awk -F'\t' -v t="$c" '$1 == t { print $2; exit }' "$kdir/top.tsv")
		why=$(awk -F'\t' -v t="$c" '$1 == t { print $3; exit }' "$kdir/top.tsv")
		case "$r" in
		pass) r=ok ;;
		fail) [[ $why != hang:* ]] || r=hang ;;
		skip)
			# a skip because an earlier cell failed is "not run"
			case "$why" in "no MODULE_TEST given") r=skip ;; *) r=- ;; esac
			why=''
			;;
		*) r='' ;;
		esac
		eval "CELL_$c=\${r:--} MSG_$c=\$why"
	done
	problem=$(matrix_boot_problem "$k" "$kdir")
	if [ -n "$problem" ]; then
		# The cell the guest was in when it stopped answering.
		last=$(grep -aho 'cdev-vendor: stage [a-z]*' "$kdir/ktap.txt" "$kdir/console.log" 2>/dev/null |
			tail -n1 | awk '{ print $3 }' || true)
		last=${last:-load}
		r=$([ "$BOOT_STATUS" = hang ] && echo hang || echo fail)
		local after=0
		for c in load test unload log; do
			if [ "$c" = "$last" ]; then
				eval "CELL_$c=$r MSG_$c=\$problem"
				after=1
			elif [ "$after" -eq 1 ]; then
				eval "CELL_$c=-"
			fi
		done
		# The kernel's own last words, when it crashed.
		why=$(grep -aE -m1 'BUG[: ]|Oops|Kernel panic|general protection' "$kdir/console.log" | sed -E 's/^\[ *[0-9.]+\] //' || true)
		[ -z "$why" ] || eval "MSG_$last=\"\$why (\$problem)\""
	fi
	R_STATUS=pass
	for c in $CELLS; do
		v=CELL_$c
		case "${!v}" in ok | skip | -) ;; *) R_STATUS=fail ;; esac
	done
	[ "$R_STATUS" = pass ] || [ "$BOOT_STATUS" != hang ] || R_STATUS=hang
	if [ "$R_STATUS" = pass ]; then
		R_FAILED=0
		matrix_result_write "$kdir"
	else
		matrix_fail_kernel "$k" "$kdir" "$(for c in $CELLS; do v=CELL_$c; m=MSG_$c; case "${!v}" in ok | skip | -) ;; *) printf '%s: %s; ' "$c" "${!m}" ;; esac; done)" || true
		return 1
	fi
}
