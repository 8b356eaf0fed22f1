#!/bin/bash
# Stress on the one-arg kernel (issue 6 §3): 4 threads doing 10,000 open/read/close each on a
# test region's node while another loop unregisters and re-registers that region for the
# same time; then the same against the main device while a loop unloads and reloads the
# module. No oops, leak or lockdep report (checked by 99-kernel-log), refcounts back to zero.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

case "$(uname -r)" in
*-cdev-onearg) ;;
*)
	ktap_skip stress "reliability suite runs on the one-arg debug kernel only"
	ktap_done
	exit
	;;
esac

threads=4 iterations=10000
ktap_check load shim_load

# Region churn: re-register region 0 (with nodes) while the threads hammer its first node.
out=$("$SHIM_TEST" register 0 0 4 1)
id=$(field id "$out")
wait_for 5 test -c "/dev/cdev_shim_t${id}_0"
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
"$SHIM_TEST" unregister "$id" >/dev/null

# Module churn: rmmod/modprobe while the threads hammer /dev/cdev_shim0.
"$SHIM_TEST" stress /dev/cdev_shim0 "$threads" "$iterations" >/tmp/stress.out 2>&1 &
stress=$!
reloads=0 refused=0
while kill -0 "$stress" 2>/dev/null; do
	if rmmod "$SHIM" 2>/dev/null; then
		modprobe "$SHIM" && reloads=$((reloads + 1))
	else
		refused=$((refused + 1))
	fi
done
wait "$stress"
rc=$?
lsmod | grep -q "^$SHIM " || modprobe "$SHIM"
ktap_diag "module churn: $(cat /tmp/stress.out); $reloads reloads, $refused rmmod refused (device open)"
expect module_churn_threads_clean "stress exit $rc: $(cat /tmp/stress.out)" test "$rc" -eq 0
wait_for 5 test "$(cat /sys/module/$SHIM/refcnt)" -eq 0
expect refcount_back_to_zero "refcnt $(cat /sys/module/$SHIM/refcnt)" test "$(cat /sys/module/$SHIM/refcnt)" -eq 0
ktap_check unload shim_unload
ktap_done
