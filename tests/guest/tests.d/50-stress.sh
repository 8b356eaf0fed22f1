#!/bin/bash
# Stress (issue 6 §3): 4 threads doing 10,000 open/read/close each on a test region's node
# while another loop unregisters and re-registers that region for the same time; then the same
# against the main device while a loop unloads and reloads the module, for up to 3 rounds
# until it reloaded at least once: 0 reloads, a failed modprobe or an rmmod that fails for
# another reason than a device in use (refused, or EAGAIN when an open races it) is a failure. No oops, leak or lockdep report (checked by
# 99-kernel-log), refcounts back to zero. It runs on a kernel with lock debugging
# (/proc/lockdep); elsewhere it skips, except where it is required (the one-arg kernel,
# whatever its name; see run-guest-tests.sh): there a missing facility is a failure.
# Required-on: one-arg
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

if [ ! -e /proc/lockdep ]; then
	ktap_plan 1
	ktap_skip stress "not a debug kernel: no /proc/lockdep (needs CONFIG_PROVE_LOCKING), so a race would go unseen"
	ktap_done
	exit
fi

ktap_plan 10
threads=4 iterations=10000
ktap_check load shim_load

# Region churn: re-register region 0 (with nodes) while the threads hammer its first node.
id='' out=$("$SHIM_TEST" register 0 0 4 1) && id=$(field id "$out")
expect region_registered "register: '$out'" eval "[ -n '$id' ] && wait_for 5 test -c /dev/cdev_shim_t${id}_0"
"$SHIM_TEST" stress "/dev/cdev_shim_t${id}_0" "$threads" "$iterations" >/tmp/stress.out 2>&1 &
stress=$!
churns=0 churn_errors=0
while kill -0 "$stress" 2>/dev/null; do
	"$SHIM_TEST" unregister "$id" >/dev/null || churn_errors=$((churn_errors + 1))
	out=$("$SHIM_TEST" register 0 0 4 1) || churn_errors=$((churn_errors + 1))
	id=$(field id "$out")
	churns=$((churns + 1))
done
wait "$stress"
rc=$?
ktap_diag "region churn: $(cat /tmp/stress.out); $churns unregister/register cycles, $churn_errors errors"
expect region_churn_threads_clean "stress exit $rc: $(cat /tmp/stress.out)" test "$rc" -eq 0
expect region_churn_cycles "$churns cycles, $churn_errors errors" test "$churns" -gt 0 -a "$churn_errors" -eq 0
ok_opens=$(field ok "$(cat /tmp/stress.out)")
expect region_churn_some_opens_served "ok=$ok_opens" test "${ok_opens:-0}" -gt 0
"$SHIM_TEST" unregister "$id" >/dev/null || ktap_diag "final unregister of region $id failed"

# Module churn: rmmod/modprobe while the threads hammer /dev/cdev_shim0; a round that got no
# reload in is repeated (up to 3 rounds).
reloads=0 refused=0 modprobe_failed=0 rmmod_failed=0 threads_rc=0 rounds=0 stress_out=''
while [ "$reloads" -eq 0 ] && [ "$rounds" -lt 3 ] && [ "$modprobe_failed" -eq 0 ]; do
	rounds=$((rounds + 1))
	"$SHIM_TEST" stress /dev/cdev_shim0 "$threads" "$iterations" >/tmp/stress.out 2>&1 &
	stress=$!
	while kill -0 "$stress" 2>/dev/null; do
		if err=$(rmmod "$SHIM" 2>&1); then
			if modprobe "$SHIM"; then
				reloads=$((reloads + 1))
			else
				modprobe_failed=$((modprobe_failed + 1))
				break
			fi
		elif [[ $err == *"in use"* || $err == *"Resource temporarily unavailable"* ]]; then
			# In use: refused, or (EAGAIN) an open came in between rmmod's look at the
			# refcount and its delete_module().
			refused=$((refused + 1))
		else
			rmmod_failed=$((rmmod_failed + 1))
			ktap_diag "rmmod $SHIM: $err"
		fi
	done
	wait "$stress"
	rc=$?
	[ "$rc" -eq 0 ] || threads_rc=$rc
	stress_out+="round $rounds: $(cat /tmp/stress.out) "
done
loaded_again=yes
shim_loaded || modprobe "$SHIM" || loaded_again=no
ktap_diag "module churn: ${stress_out}$reloads reloads in $rounds rounds, $refused rmmod refused (device open), $rmmod_failed rmmod failed otherwise, $modprobe_failed modprobe failed"
expect module_churn_threads_clean "stress exit $threads_rc: $stress_out" test "$threads_rc" -eq 0
expect module_churn_reloads "$reloads reloads in $rounds rounds, $modprobe_failed modprobe failed, $rmmod_failed rmmod failed (not in use)" \
	test "$reloads" -gt 0 -a "$modprobe_failed" -eq 0 -a "$rmmod_failed" -eq 0
expect module_loaded_after_churn "module loaded again: $loaded_again" test "$loaded_again" = yes
# shellcheck disable=SC2016 # evaluated on each poll
wait_for 5 eval '[ "$(cat /sys/module/$SHIM/refcnt 2>/dev/null)" = 0 ]'
expect refcount_back_to_zero "refcnt $(cat /sys/module/$SHIM/refcnt 2>&1)" test "$(cat /sys/module/$SHIM/refcnt 2>/dev/null)" = 0
ktap_check unload shim_unload
ktap_done
