#!/bin/bash
# In-guest runner of a vendor matrix run (make matrix MODULE=DIR): the host appended the
# module(s) built for this kernel and the vendor's test under /usr/lib/cdev-compat/vendor/
# (modules/NAME.ko, order, deps, test, test.timeout; tests/matrix/lib/vendor.sh). Prints one
# KTAP document with four tests, the cells of the matrix table:
#   1 load    the kernel's own modules in deps (modprobe), then the vendor's in order (insmod)
#   2 test    the vendor's test, bounded by test.timeout: exit 0 = pass; KTAP or TAP output is
#             merged as subtests (a "not ok" fails it); a test still running is killed: "hang"
#   3 unload  rmmod in reverse order; each module must be gone
#   4 log     the kernel log since the load: no WARN, BUG, Oops, KASAN, UBSAN, slab poison or
#             redzone report, lockdep report, soft lockup, kmemleak finding (when the kernel
#             has kmemleak), and no taint flag but O and E (out-of-tree, unsigned) added
# Before each result, a failed cell's first error line as a "# " diagnostic. A cell that
# cannot run (its predecessor failed) is "ok N name # SKIP why". "# cdev-vendor: stage NAME"
# marks each start, so the host can name the cell a hung guest was in. Output goes to stdout
# and the virtio-serial port org.cdev-compat.ktap; with --exit, QEMU exits through
# isa-debug-exit with 16 + status (0 every cell passed, 1 a cell failed, 2 runner error).
set -euo pipefail

V=${CDEV_VENDOR_DIR:-/usr/lib/cdev-compat/vendor}
exit_helper=/usr/lib/cdev-compat/bin/cdev-debug-exit
port_name=org.cdev-compat.ktap
do_exit=0
[ "${1:-}" = --exit ] && do_exit=1

finish() {
	local status=$1
	if [ "$do_exit" -eq 1 ]; then
		sync
		"$exit_helper" $((16 + status)) || true
	fi
	exit "$status"
}
trap 'finish 2' ERR

find_port() {
	local n i pname
	[ -d /sys/class/virtio-ports ] || modprobe -q virtio_console 2>/dev/null || true
	for ((i = 1; i <= 50; i++)); do
		for n in /sys/class/virtio-ports/*/name; do
			[ -e "$n" ] || continue
			read -r pname <"$n" || continue
			if [ "$pname" = "$port_name" ]; then
				n=${n%/name}
				printf '/dev/%s\n' "${n##*/}"
				return 0
			fi
		done
		[ "$i" -lt 5 ] || [ -d /sys/class/virtio-ports ] || return 1
		sleep 0.1
	done
	return 1
}

port=
if [ "$do_exit" -eq 1 ] && port=$(find_port) && [ -c "$port" ]; then
	exec 3>"$port"
else
	exec 3>/dev/null
fi

emit() {
	printf '%s\n' "$@"
	printf '%s\n' "$@" >&3
}

# result N NAME STATE [WHY] - STATE ok|fail|skip; WHY is the first error line or skip reason.
failed=0
result() {
	case "$3" in
	ok) emit "ok $1 $2" ;;
	skip) emit "ok $1 $2 # SKIP ${4:-}" ;;
	*)
		[ -z "${4:-}" ] || emit "# $4"
		emit "not ok $1 $2"
		failed=$((failed + 1))
		;;
	esac
}

stage() {
	emit "# cdev-vendor: stage $1"
	echo "cdev-vendor: stage $1" >/dev/kmsg 2>/dev/null || true
}

# first_line FILE [PATTERN] - the first line of FILE matching PATTERN (ERE, case-insensitive),
# else its last non-empty line.
first_line() {
	local l
	l=$(grep -m1 -iE "${2:-error|fail|fault|bug|oops|mismatch|unexpected|expected|wrong}" "$1" 2>/dev/null || true)
	[ -n "$l" ] || l=$(grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n1 || true)
	printf '%s\n' "$l" | cut -c1-300
}

# bounded SECS OUT CMD... - CMD in its own session, output to OUT; killed after SECS.
# Sets B_RC (its status) and B_HUNG: 0 ended, 1 killed, 2 still there 5 s after SIGKILL (stuck
# in the kernel). No polling (under TCG a poll's sleep cost 0.3 s of a 10 s boot): a timer
# child kills CMD's session at the deadline and, should CMD outlive that by 5 s, interrupts
# this shell's wait with SIGUSR1. Deadlines are wall-clock (sleep), as before.
bounded() {
	local secs=$1 out=$2 pid timer killed=${BOUNDED_MARK:-/tmp/bounded.killed} me=$BASHPID
	shift 2
	rm -f "$killed"
	setsid "$@" >"$out" 2>&1 </dev/null &
	pid=$!
	(
		sleep "$secs"
		: >"$killed"
		kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || exit 0
		sleep 5
		kill -USR1 "$me" 2>/dev/null || true
	) &
	timer=$!
	trap : USR1
	B_RC=0 B_HUNG=0
	wait "$pid" || B_RC=$?
	# The timer ends before the trap goes (a SIGUSR1 without it would end this runner); waited
	# for only when it was still there (bash's wait for a child it already reaped can block).
	if kill "$timer" 2>/dev/null; then wait "$timer" 2>/dev/null || true; fi
	trap - USR1
	[ -e "$killed" ] || return 0
	B_HUNG=1
	# wait returned without CMD's status (SIGUSR1): CMD is still there
	if kill -0 "$pid" 2>/dev/null; then
		B_HUNG=2 B_RC=137
	fi
}

# kernel_log - the kernel log since the load stage began (read into a file first: a pipe from
# dmesg into a reader that stops early, such as grep -q or -m1, fails with SIGPIPE under
# pipefail, and that failed the log cell now and then).
kernel_log() {
	dmesg >/tmp/kernel.log 2>/dev/null || true
	awk '/cdev-vendor: stage load/ { on = 1 } on' /tmp/kernel.log
}

# late_releases_settled TRIES - on a kernel with late kobject releases
# (CONFIG_DEBUG_KOBJECT_RELEASE, the 6.1 debug one-arg kernel: it logs each put that schedules
# one as "kobject: 'NAME' (...): kobject_release, parent ... (delayed D)" and runs the release
# 1-4 s later), wait until the newest such line is more than 5 s old, so that every release the
# unload scheduled has run before the log cell reads the log: one that touches the unloaded
# module's memory (a static cdev or class there) is reported in this run, not after it. A release
# may put its parent and schedule another, so the newest line is read again, once a second, at
# most TRIES times; still scheduling then: a diagnostic, and the log cell goes on. A kernel that
# has logged no late release has none: no wait.
late_releases_settled() {
	local tries=$1 last now i
	for ((i = 0; i < tries; i++)); do
		# (grep and tail read all their input: no early-stopping reader, no SIGPIPE)
		last=$(dmesg 2>/dev/null | grep -E "kobject: '[^']*' \([^)]*\): kobject_release, parent [^ ]+ \(delayed [0-9]+\)" | tail -n1) || true
		[ -n "$last" ] || return 0
		[[ $last =~ ^\[\ *([0-9]+)\. ]] || { sleep 5 && return 0; }
		last=${BASH_REMATCH[1]}
		read -r now _ </proc/uptime
		[ $((${now%.*} - last)) -lt 6 ] || return 0
		sleep 1
	done
	emit "# late kobject releases were still being scheduled $tries s after the unload"
}

log_pattern='WARNING:|BUG[: ]|Oops|general protection fault|kernel BUG|Kernel panic|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|UBSAN:|KASAN:|unreferenced object|Poison overwritten|Redzone overwritten|Object padding overwritten|Freepointer corrupt|Padding overwritten|soft lockup|hard LOCKUP|blocked for more than|Call Trace:'

taint_letters() {
	local t=$1 i s='' letters=PFSRMBUDAWCIOELKXT
	for ((i = 0; i < ${#letters}; i++)); do
		[ $(((t >> i) & 1)) -eq 0 ] || s+=${letters:i:1}
	done
	printf '%s\n' "$s"
}

mapfile -t order <"$V/order"
mapfile -t deps <"$V/deps"
timeout_s=60
[ ! -r "$V/test.timeout" ] || read -r timeout_s <"$V/test.timeout"
kml=/sys/kernel/debug/kmemleak
debugfs=0
while read -r _ dir _; do [ "$dir" != /sys/kernel/debug ] || debugfs=1; done </proc/mounts
[ "$debugfs" -eq 1 ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
read -r release </proc/sys/kernel/osrelease

emit "KTAP version 1" "# cdev-compat-probe: kernel=$release arity=?" "1..4"
emit "# cdev-vendor: modules ${order[*]}${deps[0]:+, kernel modules ${deps[*]}}"
read -r taint0 </proc/sys/kernel/tainted
[ ! -w "$kml" ] || echo clear >"$kml" 2>/dev/null || true

# 1 load
stage load
t_load=$EPOCHSECONDS
load=ok why=''
for m in "${deps[@]}"; do
	[ -n "$m" ] || continue
	bounded 60 /tmp/modprobe.out modprobe "$m"
	if [ "$B_RC" -ne 0 ]; then
		load=fail why="modprobe $m (a dependency): $(first_line /tmp/modprobe.out)"
		break
	fi
done
loaded=()
if [ "$load" = ok ]; then
	for m in "${order[@]}"; do
		bounded 60 /tmp/insmod.out insmod "$V/modules/$m.ko"
		if [ "$B_RC" -ne 0 ] || [ ! -d "/sys/module/$m" ]; then
			load=fail
			why=$(kernel_log | grep -m1 -E "$log_pattern" | sed -E 's/^\[ *[0-9.]+\] //' || true)
			[ -n "$why" ] || why=$(first_line /tmp/insmod.out)
			[ "$B_HUNG" -eq 0 ] || why="hang: insmod $m did not return in 60s; $why"
			why="insmod $m: ${why:-exit status $B_RC}"
			break
		fi
		loaded+=("$m")
	done
fi
result 1 load "$load" "$why"

# 2 test
stage test
test_hung=0
if [ "$load" != ok ]; then
	result 2 test skip "the load failed"
elif [ ! -x "$V/test" ]; then
	result 2 test skip "no MODULE_TEST given"
else
	mkdir -p /tmp/vendor-test
	cd /tmp/vendor-test
	MODULES="${order[*]}" VENDOR_DIR=$V bounded "$timeout_s" /tmp/test.out "$V/test"
	cd /
	test_hung=$B_HUNG
	ktap=0
	grep -qE '^(KTAP|TAP) version' /tmp/test.out && ktap=1
	state=ok why=''
	if [ "$B_HUNG" -ne 0 ]; then
		state=fail why="hang: $(basename "$(cat "$V/test.name")") still running after ${timeout_s}s, killed"
		[ "$B_HUNG" -eq 1 ] || why+=" (and still there after SIGKILL: stuck in the kernel)"
	elif [ "$ktap" -eq 1 ] && grep -qE '^not ok ' /tmp/test.out; then
		state=fail
	elif [ "$B_RC" -ne 0 ]; then
		state=fail
		[ "$ktap" -eq 1 ] || why="$(first_line /tmp/test.out) (exit status $B_RC)"
	fi
	if [ "$ktap" -eq 1 ]; then
		# Merged: the test's own results become subtests of "test".
		while IFS= read -r line; do
			case "$line" in
			"ok "* | "not ok "* | "#"* | "1.."* | "KTAP version"* | "TAP version"* | " "*) emit "    $line" ;;
			"") ;;
			*) emit "    # $line" ;;
			esac
		done </tmp/test.out
		[ "$state" = ok ] || [ -n "$why" ] || [ "$B_RC" -eq 0 ] || why="exit status $B_RC"
	else
		tail -n 200 /tmp/test.out | sed 's/^/    # /' | while IFS= read -r line; do emit "$line"; done
	fi
	result 2 test "$state" "$why"
fi

# 3 unload
stage unload
if [ "$load" != ok ] && [ ${#loaded[@]} -eq 0 ]; then
	result 3 unload skip "the load failed"
elif [ "$test_hung" -eq 2 ]; then
	result 3 unload skip "the test is stuck in the kernel"
else
	unload=ok why=''
	for ((i = ${#loaded[@]} - 1; i >= 0; i--)); do
		m=${loaded[i]}
		bounded 60 /tmp/rmmod.out rmmod "$m"
		if [ "$B_RC" -ne 0 ] || [ -d "/sys/module/$m" ]; then
			unload=fail why="rmmod $m: $(first_line /tmp/rmmod.out)"
			[ "$B_HUNG" -eq 0 ] || why="hang: rmmod $m did not return in 60s"
			break
		fi
	done
	if [ "$load" != ok ]; then
		result 3 unload skip "the load failed (the modules loaded before the failure were removed: $unload)"
	else
		result 3 unload "$unload" "$why"
	fi
fi

# 4 log
stage log
late_releases_settled 30
findings=''
if [ -w "$kml" ]; then
	# kmemleak reports objects older than 5 s: wait until the load is that old, then scan.
	left=$((6 - (EPOCHSECONDS - t_load)))
	[ "$left" -le 0 ] || sleep "$left"
	echo scan >"$kml" 2>/dev/null || true
	leaks=$(grep -c '^unreferenced object' "$kml" 2>/dev/null || true)
	if [ "${leaks:-0}" -gt 0 ]; then
		findings="kmemleak: $leaks unreferenced objects: $(grep -m1 '^unreferenced object' "$kml")"
		# (head first: a reader that stops early would fail the writer with SIGPIPE)
		head -n 40 "$kml" | sed 's/^/# /' | while IFS= read -r line; do emit "$line"; done
	fi
fi
kernel_log >/tmp/since-load.log
first=''
[ ! -s /tmp/since-load.log ] || read -r first </tmp/since-load.log
[[ $first == *"cdev-vendor: stage load"* ]] ||
	findings="${findings:+$findings; }cannot read the kernel log (no load marker in dmesg)"
grep -E "$log_pattern" /tmp/since-load.log >/tmp/hits.log || true
if [ -s /tmp/hits.log ]; then
	head -n 20 /tmp/hits.log | sed 's/^/# kernel log: /' | while IFS= read -r line; do emit "$line"; done
	read -r hit </tmp/hits.log
	findings="$(sed -E 's/^\[ *[0-9.]+\] //' <<<"$hit")${findings:+; $findings}"
fi
read -r taint1 </proc/sys/kernel/tainted
new=$((taint1 & ~taint0 & ~(4096 | 8192)))
if [ "$new" -ne 0 ]; then
	findings="${findings:+$findings; }taint: $(taint_letters "$new") added (now $(taint_letters "$taint1"))"
fi
if [ -z "$findings" ]; then
	result 4 log ok
else
	result 4 log fail "$findings"
fi

read -r up _ </proc/uptime
emit "# cdev-vendor: $release: $failed of 4 cells failed, uptime ${up}s"
trap - ERR
finish $((failed > 0 ? 1 : 0))
