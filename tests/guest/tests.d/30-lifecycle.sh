#!/bin/bash
# cdev_shim's life cycle beyond the basics (issue 6 §1): /proc/devices gains exactly the
# module's lines and loses them all on unload (the legacy devices go through every
# unregister_chrdev() spelling); nodes have the right names and modes; the owner keeps the
# module while a device is open; the redirect device (an unmodified register_chrdev()
# driver) is served by a cdev-compat region; bad module parameters fail the load with the
# reason in the kernel log and leave nothing registered.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

shim_unload
before=$(chrdevs)
ktap_check load shim_load
names=$(lines_added "$before" "$(chrdevs)" | while read -r _ name; do echo "$name"; done | sort | tr '\n' ' ')
want="cdev_shim cdev_shim_bench_cdev cdev_shim_bench_native cdev_shim_bench_redirect cdev_shim_ctl cdev_shim_legacy1 cdev_shim_legacy2 cdev_shim_ranged3 cdev_shim_ranged4 cdev_shim_redirect "
expect proc_devices_gains_exactly "gained '$names', want '$want'" test "$names" = "$want"

# Node names and modes: the main device 0666, the control device 0600, legacy ones default.
mode_is() { [ "$(stat -c %a "$1")" = "$2" ]; }
expect node_mode_main "/dev/cdev_shim0: $(stat -c %a /dev/cdev_shim0 2>&1)" mode_is /dev/cdev_shim0 666
expect node_mode_ctl "/dev/cdev_shim_ctl: $(stat -c %a /dev/cdev_shim_ctl 2>&1)" mode_is /dev/cdev_shim_ctl 600
for l in legacy2 legacy1 ranged4 ranged3; do
	node=/dev/cdev_shim_$l
	if wait_for 5 test -c "$node"; then
		out=$("$SHIM_TEST" whoami "$node")
		expect "legacy_${l}_served" "$node: '$out'" \
			test "$(field dev "$out")" = "cdev_shim_$l" -a "$(field cdev_compat "$out")" = 0
	else
		ktap_fail "legacy_${l}_served" "$node missing"
	fi
done

# Redirect mode: the legacy driver's register_chrdev() went to a cdev-compat region.
rmaj=$(major_of cdev_shim_redirect)
rm -f /dev/cdev_shim_test_redirect
if [ -n "$rmaj" ] && mknod /dev/cdev_shim_test_redirect c "$rmaj" 0; then
	out=$("$SHIM_TEST" whoami /dev/cdev_shim_test_redirect)
	expect redirect_served_by_cdev_compat "'$out'" \
		test "$(field dev "$out")" = cdev_shim_redirect -a "$(field cdev_compat "$out")" = 1
	line=$(head -c 200 /dev/cdev_shim_test_redirect)
	expect redirect_read "'$line'" test "${line#"dev=cdev_shim_redirect major=$rmaj minor=0 "}" != "$line"
	rm -f /dev/cdev_shim_test_redirect
else
	ktap_fail redirect_served_by_cdev_compat "no cdev_shim_redirect major, or mknod failed"
fi

# Owner: rmmod is refused while a device is open, works after the last close.
exec 5</dev/cdev_shim1
read -r refcnt </sys/module/$SHIM/refcnt
expect owner_refcount_held "refcnt $refcnt while open" test "$refcnt" -ge 1
if rmmod "$SHIM" 2>/tmp/rmmod.err; then
	ktap_fail owner_rmmod_refused_while_open "rmmod succeeded with /dev/cdev_shim1 open"
	exec 5<&-
	modprobe "$SHIM"
else
	ktap_ok owner_rmmod_refused_while_open
	ktap_diag "rmmod while open: $(</tmp/rmmod.err)"
	exec 5<&-
fi
read -r refcnt </sys/module/$SHIM/refcnt
expect owner_refcount_released "refcnt $refcnt after close" test "$refcnt" -eq 0
ktap_check owner_rmmod_after_close rmmod "$SHIM"
expect proc_devices_loses_all "left: $(lines_added "$before" "$(chrdevs)" ' ')" \
	test "$(chrdevs)" = "$before"
expect nodes_vanish "left: $(echo /dev/cdev_shim*)" \
	wait_for 5 eval "! compgen -G '/dev/cdev_shim*' >/dev/null"

# Bad module parameters: the load fails, the log names the reason, nothing stays.
# bad_params NAME REASON PARAM=VALUE...
bad_params() {
	local name=$1 reason=$2 mark
	shift 2
	mark="cdev-compat-test: $name"
	echo "$mark" >/dev/kmsg
	if modprobe "$SHIM" "$@" 2>/dev/null; then
		ktap_fail "$name" "modprobe $SHIM $* succeeded"
		shim_unload
		return
	fi
	log=$(log_since "$mark")
	if [[ $log != *"$reason"* ]]; then
		ktap_fail "$name" "kernel log after the failed load lacks '$reason': $(tail -n 3 <<<"$log" | tr '\n' ' ')"
	elif [ "$(chrdevs)" != "$before" ]; then
		ktap_fail "$name" "/proc/devices changed: $(lines_added "$before" "$(chrdevs)" ' ')"
	elif shim_loaded; then
		ktap_fail "$name" "module still loaded"
	else
		ktap_ok "$name"
	fi
}
bad_params bad_param_count_zero 'minor count is 0' count=0
bad_params bad_param_major_beyond_dev_t 'major 5000 is beyond the largest major' major=5000
bad_params bad_param_major_beyond_chrdev_max 'major 600 is beyond the largest major 511' major=600
bad_params bad_param_past_largest_major 'run past the largest major 511' major=511 baseminor=1048575 count=2
bad_params bad_param_top_of_dev_t 'major 4095 is beyond the largest major 511' major=4095 baseminor=1048574 count=2
ktap_done
