# shellcheck shell=bash
# Helpers for the guest tests that drive cdev_shim (tests.d/2x-9x). Source after ktap.sh.

SHIM=cdev_shim
SHIM_TEST=${SHIM_TEST:-/usr/lib/cdev-compat/bin/cdev-shim-test}

# wait_for SECONDS CMD... - poll CMD every 0.1 s (udev and devtmpfs act asynchronously).
wait_for() {
	local tries=$(($1 * 10))
	shift
	while ! "$@" >/dev/null 2>&1; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# chrdevs - the "Character devices" part of /proc/devices, one "major name" a line, sorted.
chrdevs() {
	awk '/^Character devices:/ { on = 1; next } /^$/ { on = 0 } on { print $1, $2 }' /proc/devices |
		sort
}

# major_of NAME - the (first) major /proc/devices lists for NAME.
major_of() {
	chrdevs | awk -v n="$1" '$2 == n { print $1; exit }'
}

shim_unload() {
	if lsmod | grep -q "^$SHIM "; then
		rmmod "$SHIM"
	fi
}

# shim_load [PARAM=VALUE...] - load the module and wait for its control node.
shim_load() {
	shim_unload || return 1
	modprobe "$SHIM" "$@" || return 1
	wait_for 5 test -c /dev/cdev_shim_ctl
}

# free_major FROM TO - a major in [FROM, TO] that /proc/devices does not list.
free_major() {
	local m
	for ((m = $1; m <= $2; m++)); do
		chrdevs | awk -v m="$m" '$1 == m { found = 1 } END { exit !found }' || {
			echo "$m"
			return 0
		}
	done
	return 1
}

# field KEY LINE - the value of KEY=value in a line of "k=v" words.
field() {
	tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"
}

# node_for MAJOR MINOR - the /dev node with these numbers (first found).
node_for() {
	local want
	want=$(printf '%x:%x' "$1" "$2")
	find /dev -maxdepth 1 -type c -exec stat -c '%t:%T %n' {} + 2>/dev/null |
		awk -v w="$want" '$1 == w { print $2; exit }'
}

# expect NAME WHY CMD... - ok if CMD succeeds, else not ok with WHY as the diagnostic.
expect() {
	local name=$1 why=$2
	shift 2
	if "$@" >/dev/null 2>&1; then ktap_ok "$name"; else ktap_fail "$name" "$why"; fi
}

# kmemleak_split FILE - count kmemleak records: prints "TOTAL KNOWN OTHER", where KNOWN are
# leaks of a kernel bug outside cdev-compat: Linux 6.1's __class_register() frees its
# subsys_private without the kobject name it set when kset_register() fails (an injected
# failure inside class_create()), so the name string leaks. Every other record counts.
kmemleak_split() {
	awk '/^unreferenced object/ { if (n) tally(); n++; known = 0; next }
		/__class_register/ { cr = 1 } /kobject_set_name/ { ks = 1 }
		function tally() { if (cr && ks) k++; else o++; cr = ks = 0 }
		END { if (n) tally(); printf "%d %d %d\n", n, k, o }' "$1"
}
