#!/bin/bash
# Lifetimes (issues 12 and 32), on kernels booted with slub_debug=FZP page_poison=1 (and KASAN
# on the debug one-arg kernels), so that memory used after it was freed is reported instead of
# passing silently:
# - redirect mode, unregistered at run time while a file is open, registered again while it is
#   still open, then the file closed (each registration's cdev outlives it; the kernel frees
#   it after the last close);
# - redirect mode across two files (registered in one, unregistered in another): after the
#   module is gone, its major must be gone and an open of its old node must fail with ENXIO;
# - a handle registered again while still registered is refused (-EBUSY); registered again
#   while a file of the earlier registration is open, with other file operations, it serves
#   new opens with those, while the old file (and an open through its inode) keeps the old;
# - file operations without .owner, in redirect mode and through a handle (cdev_shim_noowner):
#   load, open, read, close, unload;
# - another module unregistering the redirect device's major (cdev_shim_peer): ignored with a
#   message, the registration intact and served, and gone only with its own module;
# - the edges of the device number space: a range ending at the top of dev_t or past major
#   511 is -EINVAL (it once registered nothing and mapped a cdev anyway), one ending at the
#   last minor of major 511 works;
# - the control device: CAP_SYS_ADMIN only; a request whose answer cannot be copied back
#   leaves no region behind.
# The kernel log must show no oops, BUG, poison or refcount report from any of it.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

mark="cdev-compat-test: 35-lifetime start $$"
echo "$mark" >/dev/kmsg
ktap_check load shim_load
before=$(chrdevs)
node=/dev/cdev_shim_test_lifetime

# --- redirect: unregister while open, register again while open, then close -----------
rmaj=$(major_of cdev_shim_redirect)
if [ -z "$rmaj" ]; then
	ktap_fail redirect_registered "no cdev_shim_redirect in /proc/devices"
else
	rm -f "$node" "$node.2"
	mknod "$node" c "$rmaj" 0
	mknod "$node.2" c "$rmaj" 0
	exec 5<"$node" 6<"$node.2"
	out=$("$SHIM_TEST" redirect 0)
	expect redirect_unregistered_while_open "redirect 0: '$out'; /proc/devices: $(major_of cdev_shim_redirect)" \
		test -z "$(major_of cdev_shim_redirect)" -a "$out" = "major=0"
	if head -c 100 <&5 >/dev/null 2>&1; then
		ktap_ok redirect_open_file_still_reads
	else
		ktap_fail redirect_open_file_still_reads "read on the file opened before the unregister failed"
	fi
	out=$("$SHIM_TEST" redirect 1)
	expect redirect_registered_again_while_open "redirect 1 with a file of the old registration open: '$out'" \
		test "$(field major "$out")" -gt 0 2>/dev/null
	if head -c 100 <&6 >/dev/null 2>&1; then
		ktap_ok redirect_old_file_reads_after_register_again
	else
		ktap_fail redirect_old_file_reads_after_register_again "read on the old registration's file failed"
	fi
	exec 5<&- 6<&-
	ktap_ok redirect_closed_after_unregister
	out=$("$SHIM_TEST" redirect 0)
	err=$(head -c 1 "$node" 2>&1 >/dev/null)
	expect redirect_node_enxio_after_unregister "open of the old node: '$err'" \
		test "${err#*No such device or address}" != "$err"
	out=$("$SHIM_TEST" redirect 1)
	rmaj=$(field major "$out")
	expect redirect_registered_again "redirect 1: '$out'" test -n "$rmaj" -a "${rmaj:-0}" -gt 0
	rm -f "$node" "$node.2"
fi

# --- a handle that is still registered, or still open --------------------------------
out=$("$SHIM_TEST" register 0 0 1 0)
id=$(field id "$out") maj=$(field major "$out")
if [ -z "$id" ]; then
	ktap_fail reuse_setup "register 0 0 1 0: $out"
else
	out=$("$SHIM_TEST" reuse "$id" 0)
	expect reuse_while_registered_ebusy "reuse $id 0: '$out'" test "$out" = "error=EBUSY"
	n=$(major_lines "$maj")
	expect reuse_while_registered_changes_nothing "$n lines for major $maj" test "$n" -eq 1
	rm -f "$node" "$node.2"
	mknod "$node" c "$maj" 0
	mknod "$node.2" c "$maj" 0
	out=$("$SHIM_TEST" reuse-open "$id" "$node" "$node.2")
	expect reuse_while_open_serves_both "reuse-open $id: '$out'" \
		test "$out" = "reuse=ok old=cdev_shim_t$id old_reopen=cdev_shim_t$id new=cdev_shim_alt"
	rm -f "$node" "$node.2"
	"$SHIM_TEST" unregister "$id" >/dev/null
	out=$("$SHIM_TEST" register 0 0 1 0)
	id=$(field id "$out")
	out=$("$SHIM_TEST" reuse "$id" 1)
	expect reuse_after_last_close_ok "reuse $id 1, nothing open: '$out'" test "$out" = ok
	"$SHIM_TEST" unregister "$id" >/dev/null
fi

# --- file operations without .owner: redirect mode and a handle ------------------------
noowner_ok() {
	local m name line
	modprobe cdev_shim_noowner || { echo "modprobe cdev_shim_noowner failed"; return 1; }
	for name in cdev_shim_noowner cdev_shim_noowner_region; do
		m=$(major_of "$name")
		[ -n "$m" ] || { echo "no $name in /proc/devices"; return 1; }
		rm -f "$node"
		mknod "$node" c "$m" 0
		line=
		exec 7<"$node" || { echo "open of $name failed"; return 1; }
		IFS= read -r line <&7
		exec 7<&-
		[ "$line" = cdev_shim_noowner ] || { echo "read of $name: '$line'"; return 1; }
	done
	rm -f "$node"
	rmmod cdev_shim_noowner || { echo "rmmod cdev_shim_noowner failed"; return 1; }
	[ -z "$(major_of cdev_shim_noowner)$(major_of cdev_shim_noowner_region)" ] ||
		{ echo "cdev_shim_noowner left a registration"; return 1; }
}
ktap_check noowner_load_open_read_close_unload noowner_ok

# --- another module unregisters the redirect device's major ----------------------------
rmaj=$(major_of cdev_shim_redirect)
peer_mark="cdev-compat-test: 35-lifetime peer $$"
echo "$peer_mark" >/dev/kmsg
if [ -z "$rmaj" ] || ! modprobe cdev_shim_peer major="$rmaj"; then
	ktap_fail peer_unregister_ignored "redirect major '$rmaj'; modprobe cdev_shim_peer major=$rmaj failed"
else
	log=$(log_since "$peer_mark")
	rm -f "$node"
	mknod "$node" c "$rmaj" 0
	who=$("$SHIM_TEST" whoami "$node")
	rm -f "$node"
	expect peer_unregister_ignored "log: '$(grep cdev_compat <<<"$log" | head -n 2)'; /proc/devices: '$(major_of cdev_shim_redirect)'; whoami: '$who'" \
		eval "grep -q 'cdev_shim_peer: unregister of major $rmaj, minors 0+256, ignored' <<<\"\$log\" && [ '$(major_of cdev_shim_redirect)' = '$rmaj' ] && [ '$(field dev "$who")' = cdev_shim_redirect ]"
	rmmod cdev_shim_peer
fi

# --- the edges of the device number space -----------------------------------------------
out=$("$SHIM_TEST" register 4095 1048574 2 0)
expect top_of_dev_t_einval "register 4095:1048574+2 (ends at 0xffffffff): '$out'" test "$out" = "error=EINVAL"
out=$("$SHIM_TEST" register 511 1048575 2 0)
expect past_largest_major_einval "register 511:1048575+2: '$out'" test "$out" = "error=EINVAL"
out=$("$SHIM_TEST" register 0 0 1048577 0)
expect dynamic_over_one_major_einval "register 0:0+1048577: '$out'" test "$out" = "error=EINVAL"
out=$("$SHIM_TEST" register 511 1048574 2 1)
id=$(field id "$out")
if [ -z "$id" ]; then
	ktap_fail largest_major_last_minors "register 511:1048574+2: '$out'"
else
	if wait_for 5 test -c /dev/cdev_shim_t"${id}"_1048575; then
		who=$("$SHIM_TEST" whoami /dev/cdev_shim_t"${id}"_1048575)
		expect largest_major_last_minors "whoami: '$who'" \
			test "$(field major "$who")" = 511 -a "$(field minor "$who")" = 1048575 -a "$(field index "$who")" = 1
	else
		ktap_fail largest_major_last_minors "/dev/cdev_shim_t${id}_1048575 never appeared"
	fi
	"$SHIM_TEST" unregister "$id" >/dev/null
fi

# --- the control device -----------------------------------------------------------------
chmod 0666 /dev/cdev_shim_ctl
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$SHIM_TEST" register 0 0 1 0 2>&1)
chmod 0600 /dev/cdev_shim_ctl
expect ctl_needs_cap_sys_admin "as nobody: '$out'" test "$out" = "error=EPERM"
snap=$(chrdevs)
out=$("$SHIM_TEST" register-readonly 0 0 1 0)
expect ctl_efault_leaves_no_region "register-readonly: '$out'; /proc/devices: $(lines_changed "$snap" "$(chrdevs)")" \
	test "$out" = "error=EFAULT" -a "$(chrdevs)" = "$snap"

# --- redirect across two files: nothing of it outlives the module ---------------------
rmaj=$(major_of cdev_shim_redirect)
ktap_check unload shim_unload
expect redirect_gone_after_unload "/proc/devices still lists cdev_shim_redirect" \
	test -z "$(major_of cdev_shim_redirect)"
if [ -n "$rmaj" ]; then
	rm -f "$node"
	mknod "$node" c "$rmaj" 0
	err=$(head -c 1 "$node" 2>&1 >/dev/null)
	expect redirect_unmapped_after_unload "open of major $rmaj after the unload: '$err'" \
		test "${err#*No such device or address}" != "$err"
	rm -f "$node"
fi
# (cdev_shim's own lines come and go with the load; any other change counts)
changed=$(lines_changed "$before" "$(chrdevs)")
changed=$(tr ';' '\n' <<<"$changed" | grep -v '^[-+][0-9]* cdev_shim' | tr '\n' ' ')
expect proc_devices_restored "changed: $changed" test -z "${changed// /}"

log=$(log_since "$mark")
bad=$(grep -E 'BUG|Oops|general protection|Poison overwritten|refcount_t|use-after-free|KASAN|ODEBUG|WARNING:|Object padding|Redzone' <<<"$log" | head -n 3)
expect kernel_log_clean "${bad:-clean}" test -z "$bad"
ktap_done
