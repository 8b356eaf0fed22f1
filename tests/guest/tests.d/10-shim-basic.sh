#!/bin/bash
# First guest test (issue 5 §4): the cdev_shim module's life cycle. modprobe; /proc/devices
# shows the region; /dev/cdev_shim<minor> nodes appear (char, right major/minor, mode 0666);
# read answers "major=<M> minor=<m>"; write returns the byte count; rmmod; registration and
# nodes are gone. Prints result lines through lib/ktap.sh (the runner adds the KTAP framing).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

mod=cdev_shim
count=4
baseminor=0

proc_major() {
	major_of "$mod"
}

registered() { [ -n "$(proc_major)" ]; }
unregistered() { [ -z "$(proc_major)" ]; }
any_node() { compgen -G "/dev/${mod}[0-9]*" >/dev/null; }
no_node() { ! any_node; }

[ ! -d "/sys/module/$mod" ] || rmmod "$mod" 2>/dev/null

ktap_check modprobe modprobe "$mod"
ktap_diag "modinfo: $(modinfo -F version "$mod" 2>/dev/null) arity=$(modinfo -F cdev_compat_unregister_args "$mod" 2>/dev/null)"
[ ! -r /sys/module/$mod/parameters/count ] || read -r count </sys/module/$mod/parameters/count
[ ! -r /sys/module/$mod/parameters/baseminor ] || read -r baseminor </sys/module/$mod/parameters/baseminor

if wait_for 5 registered; then
	major=$(proc_major)
	ktap_ok proc_devices_registered
	ktap_diag "major=$major baseminor=$baseminor count=$count"
else
	major=
	ktap_fail proc_devices_registered "no '$mod' line in /proc/devices"
fi

# nodes: every minor has a char node with the right numbers and mode 0666.
nodes_ok() {
	local i minor node want got
	for ((i = 0; i < count; i++)); do
		minor=$((baseminor + i))
		node=/dev/$mod$minor
		[ -c "$node" ] || { echo "$node: missing or not a char device"; return 1; }
		want=$(printf '%x:%x 666' "$major" "$minor")
		got=$(stat -c '%t:%T %a' "$node")
		[ "$got" = "$want" ] || { echo "$node: got '$got', want '$want' (major:minor mode)"; return 1; }
	done
}
wait_for 5 nodes_ok
ktap_check device_nodes nodes_ok

read_ok() {
	local i minor node line
	for ((i = 0; i < count; i++)); do
		minor=$((baseminor + i))
		node=/dev/$mod$minor
		IFS= read -r line <"$node" || [ -n "$line" ] || { echo "$node: read failed"; return 1; }
		case " $line " in
		*" major=$major minor=$minor "* | *" major=$major minor=$minor"$'\n'*) ;;
		*) echo "$node: read '$line', want 'major=$major minor=$minor'"; return 1 ;;
		esac
	done
}
ktap_check read_reports_minor read_ok

write_ok() {
	local i minor node out
	for ((i = 0; i < count; i++)); do
		minor=$((baseminor + i))
		node=/dev/$mod$minor
		out=$(printf 'hello cdev %d' "$minor" | dd of="$node" bs=64 2>&1) ||
			{ echo "$node: write failed: $out"; return 1; }
		[[ $out == "$((11 + ${#minor})) bytes"* || $out == *$'\n'"$((11 + ${#minor})) bytes"* ]] ||
			{ echo "$node: $out"; return 1; }
	done
}
ktap_check write_returns_count write_ok

ktap_check rmmod rmmod "$mod"
if wait_for 5 unregistered; then
	ktap_ok proc_devices_unregistered
else
	ktap_fail proc_devices_unregistered "'$(proc_major) $mod' still in /proc/devices"
fi
if wait_for 5 no_node; then
	ktap_ok device_nodes_removed
else
	ktap_fail device_nodes_removed "left: $(echo /dev/"$mod"*)"
fi

ktap_done
