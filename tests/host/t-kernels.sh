#!/bin/bash
# t-kernels.sh - the one description of each target kernel (tests/matrix/kernels/) and what
# must agree with it: every field present and valid (a built kernel's base and flavour exist,
# its profile exists, its soak tests are guest tests), the workflows' kernel lists (matrix.yml:
# the "suite" kernels; vendor-matrix.yml's default: the "vendor" kernels), the kernels of
# docs/vendors.md's calling lines, and the table of tests/matrix/kernels/README.md. Then the
# same checks on copies with one field wrong, which must fail. Last, the soak's lists (its long
# tests, each functional test in exactly one of a kernel's make matrix row and its soak) and
# how each guest starts (soak_init).
# T_KERNELS_PARTS="agree soak" (default: both) runs only those parts (what a mutant's run needs).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

work=$TEST_WORK/kernels
rm -rf "$work"
mkdir -p "$work"

# problems TOP - every disagreement between TOP's kernel descriptions and the files that must
# follow them, one a line (TOP: the project or a copy of it).
problems() {
	"$HOST_TESTS/kernels-agree.sh" "$1" 2>&1
}

# shellcheck source=../matrix/lib/kernels.sh
. "$CDEV_TOP/tests/matrix/lib/kernels.sh"
if in_parts T_KERNELS_PARTS agree "agree soak"; then
	out=$(problems "$CDEV_TOP")
	[ -z "$out" ] || printf '# %s\n' "${out//$'\n'/$'\n'# }"
	check "the kernel descriptions, the workflows, docs/vendors.md and the README table agree" test -z "$out"
	for k in $(kernel_names); do
		check "$k is in the README table" grep -q "^| $k |" "$CDEV_TOP/tests/matrix/kernels/README.md"
	done

	# The same checks must fail on a copy with one thing out of step.
	copy() {
		rm -rf "$work/copy"
		mkdir -p "$work/copy/tests/matrix" "$work/copy/tests/guest" "$work/copy/.github" "$work/copy/docs"
		cp -r "$CDEV_TOP/tests/matrix/lib" "$CDEV_TOP/tests/matrix/kernels" "$work/copy/tests/matrix/"
		cp -r "$CDEV_TOP/tests/guest/tests.d" "$work/copy/tests/guest/"
		cp -r "$CDEV_TOP/.github/workflows" "$work/copy/.github/"
		cp -r "$CDEV_TOP/kernel" "$CDEV_TOP/mkosi.profiles" "$CDEV_TOP/scripts" "$work/copy/"
		cp "$HOST_TESTS/kernels-agree.sh" "$work/copy/"
		cp "$CDEV_TOP/docs/vendors.md" "$work/copy/docs/"
	}
	# broken DESC SED FILE - a copy with SED applied to FILE (relative) must show a problem.
	broken() {
		copy
		sed -i "$2" "$work/copy/$3"
		cmp -s "$CDEV_TOP/$3" "$work/copy/$3" && { not_ok "$1 (the edit changed nothing)"; return; }
		check "$1 is found" test -n "$(problems "$work/copy")"
	}
	broken "a kernel missing from matrix.yml" 's/, onearg-newest\]/]/' .github/workflows/matrix.yml
	broken "a kernel missing from vendor-matrix.yml's default" 's/,onearg-newest-nodebug$//' .github/workflows/vendor-matrix.yml
	broken "a kernel moved out of the suite list" 's/^lists=suite$/lists=/' tests/matrix/kernels/50-onearg.conf
	broken "the kernel with late releases in the changes list" 's/^lists=suite$/lists=suite changes/' tests/matrix/kernels/50-onearg.conf
	broken "a suite kernel without late releases out of the changes list" 's/^lists=suite changes$/lists=suite/' tests/matrix/kernels/60-onearg-newest.conf
	broken "a description without a field" '/^pin=/d' tests/matrix/kernels/30-trixie.conf
	broken "a built kernel whose base does not exist" 's/^base=7.3$/base=9.9/' tests/matrix/kernels/60-onearg-newest.conf
	broken "a profile that does not exist" 's/^profile=trixie$/profile=forky/' tests/matrix/kernels/30-trixie.conf
	broken "a soak test that does not exist" 's/50-stress/51-stress/' tests/matrix/kernels/50-onearg.conf
	broken "a stale README table" 's/^| bullseye | 5.10 /| bullseye | 5.11 /' tests/matrix/kernels/README.md
	broken "an unknown soak_init" 's/^soak_init=fast$/soak_init=quick/' tests/matrix/kernels/50-onearg.conf
	copy
	sed -i 's/^soak_init=systemd$/soak_init=fast/' "$work"/copy/tests/matrix/kernels/*.conf
	check "a soak with no suite kernel booted through systemd is found" test -n "$(problems "$work/copy")"
	copy
	cp "$work/copy/tests/matrix/kernels/30-trixie.conf" "$work/copy/tests/matrix/kernels/35-forky.conf"
	check "a new description that is in no workflow is found" test -n "$(problems "$work/copy")"
fi

# The soak's long tests ("# Soak: long"): make soak runs them, make test (CDEV_SOAK_LONG=0)
# leaves them out, on every debug one-arg kernel.
# shellcheck source=../matrix/lib/suites.sh
. "$CDEV_TOP/tests/matrix/lib/suites.sh"
if in_parts T_KERNELS_PARTS soak "agree soak"; then
	for k in onearg onearg-newest; do
		full=$(suite_tests_all soak "$k" | paste -sd' ')
		short=$(CDEV_SOAK_LONG=0 suite_tests_all soak "$k" | paste -sd' ')
		in_full=no in_short=no
		[[ " $full " != *" 45-lifetime-stress "* ]] || in_full=yes
		[[ " $short " != *" 45-lifetime-stress "* ]] || in_short=yes
		check "$k: make soak runs 45-lifetime-stress ($full), make test's soak does not ($short)" \
			test "$in_full" = yes -a "$in_short" = no
	done
	# How each guest starts: the soak as its description says (the debug one-arg kernels the
	# fast init, the stock ones systemd), the functional suite always the fast init, and
	# CDEV_MATRIX_INIT above both.
	got=$(suite_init soak onearg)/$(suite_init soak onearg-newest)/$(suite_init soak bookworm)
	got+=/$(suite_init functional onearg)/$(suite_init functional bookworm)
	got+=/$(CDEV_MATRIX_INIT=systemd suite_init soak onearg)/$(CDEV_MATRIX_INIT=fast suite_init soak bookworm)
	check "the guests' init: soak onearg, onearg-newest, bookworm; functional onearg, bookworm; overridden ($got)" \
		test "$got" = fast/fast/systemd/fast/fast/systemd/fast
	# Every guest test but the soak's own (and 99-kernel-log, which reads each boot's own log)
	# runs on every suite kernel exactly once in make test:
	# in its make matrix row, or in its soak when its soak_tests name it (30-lifecycle,
	# 35-lifetime and 70-legacy-drivers on onearg, where each unload waits for the late kobject
	# releases).
	# in_soak_only N - the kernel's soak (short) runs N, its make matrix row (fun) does not.
	in_soak_only() { [[ $short == *" $1 "* && $fun != *" $1 "* ]]; }
	for k in $(kernel_names); do
		[[ " $(kernel_field "$k" lists) " == *" suite "* ]] || continue
		fun=" $(suite_tests_all functional "$k" | paste -sd' ') "
		short=" $(CDEV_SOAK_LONG=0 suite_tests_all soak "$k" | paste -sd' ') "
		twice='' never=''
		for f in "$CDEV_TOP"/tests/guest/tests.d/[0-9][0-9]-*.sh; do
			n=$(basename "$f" .sh)
			case " $SOAK_TESTS 99-kernel-log " in *" $n "*) continue ;; esac
			in=0
			[[ $fun != *" $n "* ]] || in=$((in + 1))
			[[ $short != *" $n "* ]] || in=$((in + 1))
			[ "$in" -ne 2 ] || twice+="$n "
			[ "$in" -ne 0 ] || never+="$n "
		done
		check "$k: each functional guest test runs once, in make matrix or in make test's soak (twice: ${twice:-none}; never: ${never:-none})" \
			test -z "$twice$never"
		[ "$k" = onearg ] || continue
		for n in 30-lifecycle 35-lifetime 70-legacy-drivers; do
			check "onearg: $n runs in its soak (${short# }), not in its make matrix row (${fun# })" \
				in_soak_only "$n"
		done
	done
fi
