#!/bin/bash
# Last of every guest run (issue 6 §1): the kernel log of the whole run has no WARN, BUG,
# Oops, lockdep report or kmemleak finding. With kmemleak built in, two scans run first.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

if [ -w /sys/kernel/debug/kmemleak ] || { mount -t debugfs none /sys/kernel/debug 2>/dev/null; [ -w /sys/kernel/debug/kmemleak ]; }; then
	# Two scans: kmemleak does not report an object whose contents changed since its last scan
	# (the first scan of an object always counts as a change).
	echo scan >/sys/kernel/debug/kmemleak
	echo scan >/sys/kernel/debug/kmemleak
	read -r total known other < <(kmemleak_split /sys/kernel/debug/kmemleak)
	ktap_diag "kmemleak: $total unreferenced objects after the run, $known of them the 6.1 __class_register() name leak (kernel bug, see lib/shim.sh), $other other"
	if [ "$other" -eq 0 ]; then
		ktap_ok kmemleak_clean
	else
		head -n 40 /sys/kernel/debug/kmemleak | sed 's/^/# /'
		ktap_fail kmemleak_clean "$other unreferenced objects besides the known kernel bug"
	fi
fi

pattern='WARNING:|BUG:|Oops|general protection fault|kernel BUG|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|UBSAN:|KASAN:|unreferenced object'
hits=$(dmesg | grep -E "$pattern" | grep -v 'cdev-compat-test:' || true)
if [ -z "$hits" ]; then
	ktap_ok kernel_log_clean
else
	printf '%s\n' "$hits" | head -n 20 | sed 's/^/# /'
	ktap_fail kernel_log_clean "$(printf '%s\n' "$hits" | wc -l) matching lines"
fi
ktap_done
