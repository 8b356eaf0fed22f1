#!/bin/bash
# Reliability on the one-arg kernel (issue 6 §3): failslab, then fail_page_alloc, inject
# failures into the registration paths of the cdev-compat helpers (ctl test regions, with
# and without device nodes) until at least 1000 failures were injected. Every attempt must
# either succeed or return an errno cleanly; afterwards nothing stays registered, kmemleak
# reports no new leak (bar a known 6.1 kernel bug in class_create()'s failure path, counted
# apart) and a normal registration works. It runs wherever the kernel has the facilities
# (debugfs, failslab, fail_page_alloc, kmemleak); on a kernel without them it skips, except
# where it is required (the one-arg kernel, whatever its name; see run-guest-tests.sh): there
# a missing facility is a failure.
# Required-on: one-arg
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

dbg=/sys/kernel/debug
mountpoint -q "$dbg" || mount -t debugfs none "$dbg" 2>/dev/null
absent=()
for f in "$dbg/failslab" "$dbg/fail_page_alloc" "$dbg/kmemleak"; do
	[ -e "$f" ] || absent+=("$f")
done
if [ ${#absent[@]} -gt 0 ]; then
	ktap_plan 1
	ktap_skip fault_injection "this kernel has no ${absent[*]} (needs CONFIG_FAULT_INJECTION_DEBUG_FS, FAILSLAB, FAIL_PAGE_ALLOC, DEBUG_KMEMLEAK)"
	ktap_done
	exit
fi

ktap_plan 12
ktap_check load shim_load
before=$(chrdevs)
leak_clear() { echo clear >"$dbg/kmemleak"; }
leak_count() {
	sleep 6 # kmemleak reports objects older than 5 s
	echo scan >"$dbg/kmemleak"
	echo scan >"$dbg/kmemleak"
}
leak_clear || ktap_diag "kmemleak clear failed"

# inject ATTR MIN MAX_ATTEMPTS MIN_ORDER - registration attempts, in one process with
# make-it-fail set (so ATTR, failslab or fail_page_alloc, hits only its ioctls), in rounds of
# 100 alternating without and with device nodes, until MIN failures were injected (counted
# by the 'times' budget) or MAX_ATTEMPTS. fail_page_alloc skips order-0 pages: a failed page
# fault would call the OOM killer on the guest.
inject() {
	local attr=$1 min=$2 max=$3 order=$4 dir=$dbg/$1 budget=1000000 injected=0 tries=0
	local ok=0 enomem=0 other=0 rounds=0 out rc
	[ -d "$dir" ] || { ktap_fail "${attr}_present" "no $dir"; return; }
	echo Y >"$dir/task-filter"
	echo N >"$dir/ignore-gfp-wait"
	[ -e "$dir/ignore-gfp-highmem" ] && echo N >"$dir/ignore-gfp-highmem"
	[ -e "$dir/min-order" ] && echo "$order" >"$dir/min-order"
	echo 0 >"$dir/verbose"
	echo 1 >"$dir/interval"
	echo "$budget" >"$dir/times"
	echo 25 >"$dir/probability"
	while [ "$tries" -lt "$max" ] && { [ "$min" -eq 0 ] || [ "$injected" -lt "$min" ]; }; do
		rc=0
		out=$("$SHIM_TEST" faultloop 0 0 4 $((rounds % 2)) 100 2>/tmp/faultloop.err) || rc=$?
		rounds=$((rounds + 1))
		if [ -z "$out" ]; then
			ktap_diag "$attr round $rounds: no output, status $rc: $(tr '\n' ' ' </tmp/faultloop.err)"
			other=$((other + 1))
			break
		fi
		tries=$((tries + $(field attempts "$out")))
		ok=$((ok + $(field ok "$out")))
		enomem=$((enomem + $(field enomem "$out")))
		other=$((other + $(field other "$out")))
		[ "$rc" -eq 0 ] || ktap_diag "$attr round $rounds: status $rc: $(tr '\n' ' ' </tmp/faultloop.err)"
		injected=$((budget - $(cat "$dir/times")))
	done
	echo 0 >"$dir/probability"
	ktap_diag "$attr: $tries attempts, $injected failures injected; registered $ok, ENOMEM $enomem, other errno $other"
	INJECTED=$((INJECTED + injected))
	[ "$min" -eq 0 ] || expect "${attr}_at_least_${min}_injected" "$injected injected in $tries attempts" \
		test "$injected" -ge "$min"
	expect "${attr}_errors_clean" "$other attempts failed with another errno than ENOMEM" test "$other" -eq 0
	expect "${attr}_some_registrations_survive" "no attempt succeeded" test "$ok" -gt 0
}

# Every allocation of registering a handle again fails once, in turn (fail-nth: the n-th
# fault-injection point of the call fails), cdev_add()'s kobj_map() among them: each must be
# ENOMEM and leave the handle ready to register again at once.
echo N >"$dbg/failslab/ignore-gfp-wait"
out=$("$SHIM_TEST" register 0 0 4 0)
id=$(field id "$out")
if [ -z "$id" ]; then
	ktap_fail failed_register_leaves_handle_usable "register 0 0 4 0: $out"
else
	out=$("$SHIM_TEST" failnth-reuse "$id" 2>/tmp/failnth.err)
	ktap_diag "failnth-reuse: $out $(tr '\n' ' ' </tmp/failnth.err)"
	stuck=$(field stuck "$out") other=$(field other "$out") enomem=$(field enomem "$out")
	expect failed_register_leaves_handle_usable "$out" \
		test "${stuck:-x}" = 0 -a "${other:-x}" = 0 -a "${enomem:-0}" -ge 2
	"$SHIM_TEST" unregister "$id" >/dev/null
fi

INJECTED=0
inject failslab 1000 10000 0
inject fail_page_alloc 0 400 1
ktap_diag "fault injection: $INJECTED failures injected in all"

expect nothing_left_registered "$(lines_added "$before" "$(chrdevs)" ' ')" \
	test "$(chrdevs)" = "$before"
expect no_test_nodes_left "$(echo /dev/cdev_shim_t*)" \
	wait_for 10 eval "! compgen -G '/dev/cdev_shim_t*' >/dev/null"
leak_count >/dev/null
total='?' known='?' other='?'
read -r total known other < <(kmemleak_split "$dbg/kmemleak")
ktap_diag "kmemleak after fault injection: $total unreferenced objects, $known of them the 6.1 __class_register() name leak (kernel bug on class_create() failure), $other other"
[ "$other" = 0 ] || head -n 40 "$dbg/kmemleak" | sed 's/^/# /'
expect kmemleak_no_new_leaks "$other unreferenced objects besides the known kernel bug" test "$other" = 0
out=$("$SHIM_TEST" register 0 0 4 1)
expect normal_registration_after "$out" test "${out#id=}" != "$out"
[ "${out#id=}" = "$out" ] || "$SHIM_TEST" unregister "$(field id "$out")"
ktap_check unload shim_unload
ktap_done
