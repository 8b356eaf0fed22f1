# shellcheck shell=bash
# Which guest tests each kernel's row must run, per suite, and how its guest starts.
#   functional  (make matrix) every tests.d script but the soak ones and those the kernel's
#                             soak_tests list (they run in its soak instead); fast path (no systemd)
#   soak        (make soak)   fault injection and stress (on the kernels whose description lists
#                             them in soak_tests: the debug one-arg ones; make test leaves out
#                             the long ones, "# Soak: long"), the in-guest benchmark, the
#                             kernel log; the stock kernels boot through systemd, so the image
#                             builders' path (systemd + the DKMS-installed module) stays
#                             covered, the debug one-arg kernels the fast path (suite_init)
#   bench       (make bench)  the in-guest benchmark and the kernel log; fast path
# A row passes only when every test listed for it ran, was not skipped, and passed.

SOAK_TESTS="40-fault-injection 45-lifetime-stress 50-stress 60-bench"

# suite_tests SUITE KERNEL - the tests (tests.d names without .sh) KERNEL's row must run, in order;
# with CDEV_MATRIX_TESTS=NAME,NAME... only those of them (a developer's shortcut).
suite_tests() {
	if [ -n "${CDEV_MATRIX_TESTS:-}" ]; then
		suite_tests_all "$@" | grep -xF -f <(tr ',' '\n' <<<"$CDEV_MATRIX_TESTS") || true
	else
		suite_tests_all "$@"
	fi
}

suite_tests_all() {
	local suite=$1 k=$2 f n
	case "$suite" in
	functional)
		# A functional test in the kernel's soak_tests runs in its soak, not here: on the 6.1
		# debug kernel, where each unload waits 1-4 s for the late kobject release, the soak
		# is where that wait is the point (30-lifecycle, 35-lifetime, 70-legacy-drivers: 47, 31
		# and 80 s there).
		local soak
		soak=" $SOAK_TESTS $(kernel_field "$k" soak_tests) "
		for f in "$CDEV_TOP"/tests/guest/tests.d/[0-9][0-9]-*.sh; do
			n=$(basename "$f" .sh)
			case "$soak" in *" $n "*) ;; *) printf '%s\n' "$n" ;; esac
		done
		;;
	soak)
		# With CDEV_SOAK_LONG=0 (make test: CI's 90 minutes) the tests whose header says
		# "# Soak: long" are left out; make soak runs them.
		for n in $(kernel_field "$k" soak_tests); do
			if [ "${CDEV_SOAK_LONG:-1}" = 0 ] &&
				grep -qx '# Soak: long' "$CDEV_TOP/tests/guest/tests.d/$n.sh"; then
				continue
			fi
			printf '%s\n' "$n"
		done
		printf '%s\n' 60-bench 99-kernel-log
		;;
	bench) printf '%s\n' 60-bench 99-kernel-log ;;
	*) die "unknown suite '$suite' (functional, soak, bench)" ;;
	esac
}

# suite_init SUITE K - how K's guest starts in SUITE: fast (the test runner is PID 1's child) or
# systemd. The functional and bench suites boot the fast init; the soak boots what K's
# description says (soak_init): systemd on the stock kernels, so the image builders' path
# (systemd + the DKMS-installed module) stays covered, and the fast init on the debug one-arg
# kernels, whose systemd boot under TCG is minutes of waiting before their fault injection and
# stress start (the runner started 335-384 s into it beside two other guests; 16-23 s through
# the fast init). CDEV_MATRIX_INIT=fast|systemd overrides it (to compare the two).
suite_init() {
	if [ -n "${CDEV_MATRIX_INIT:-}" ]; then
		printf '%s\n' "$CDEV_MATRIX_INIT"
		return 0
	fi
	case "$1" in
	soak) kernel_field "$2" soak_init ;;
	*) echo fast ;;
	esac
}
