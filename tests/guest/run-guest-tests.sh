#!/bin/bash
# In-guest test runner. Runs every tests/guest/tests.d/NN-name.sh in order and prints one KTAP
# document: each script is a test whose result lines become its subtests. Also prints the probe
# and required-tests lines the matrix report reads, and a summary:
#   # cdev-compat-probe: kernel=<uname -r> arity=<1|2|?>
#   # cdev-compat-required: <script names that must run and not skip on this kernel>
#   # cdev-compat-time: NAME SECONDS s     (after each script's result: how long it ran)
#   # cdev-compat-guest: N tests, P passed, F failed, S skipped
# A script fails (its parent line is "not ok", with "# name: why" lines before it) when a
# subtest fails, or it exits non-zero, times out (cdev_script_timeout= on the kernel command
# line, CDEV_GUEST_SCRIPT_TIMEOUT, default 600 s), prints no result, prints another number of
# results than its plan (ktap_plan), dies before ktap_done, or is required and skips. A script
# whose every subtest skipped is "ok N name # SKIP reason": a skip, never a pass. Required:
# cdev_require=NAME,... on the kernel command line (or CDEV_REQUIRE), and on a one-arg kernel
# the scripts whose header has "# Required-on: one-arg"; a required name with no script fails.
# Output goes to stdout and, when present, to the virtio-serial port named
# org.cdev-compat.ktap. With --exit, QEMU is then made to exit through isa-debug-exit with
# 16 + status (0 all passed, 1 a test failed, 2 the runner broke), i.e. QEMU status
# ((16 + status) << 1) | 1 = 33, 35 or 37.
# Run by cdev-matrix.service in the guest; also runnable by hand inside a guest.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
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

# The KTAP stream: stdout plus the virtio-serial port, if the host gave us one.
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

shopt -s nullglob
tests=("$here"/tests.d/[0-9][0-9]-*.sh)
arity=$(modinfo -F cdev_compat_unregister_args cdev_shim 2>/dev/null || true)
[ -n "$arity" ] || arity='?'

# Kernel command line knobs (the matrix sets them per kernel): cdev_require=NAME[,NAME...]
# names scripts (tests.d/NAME.sh) that must run and not skip; cdev_script_timeout=SECONDS.
cmdline_value() {
	local w v=''
	for w in $(cat /proc/cmdline 2>/dev/null || true); do
		case "$w" in "$1="*) v=${w#*=} ;; esac
	done
	printf '%s\n' "$v"
}
script_timeout=$(cmdline_value cdev_script_timeout)
script_timeout=${script_timeout:-${CDEV_GUEST_SCRIPT_TIMEOUT:-600}}
asked=" $(cmdline_value cdev_require | tr ',' ' ') ${CDEV_REQUIRE:-} "

# The required scripts: those asked for, and on a one-arg kernel (the cdev_shim probes say so,
# whatever the kernel is called) those whose header says "Required-on: one-arg".
required=() missing=()
# required_on_onearg SCRIPT - SCRIPT's header has the line "# Required-on: one-arg" (bash
# builtins only: under TCG every program started here costs 50-150 ms, 200 on the debug kernel).
required_on_onearg() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"# Required-on: one-arg") return 0 ;;
		"#"* | "") ;;
		*) return 1 ;;
		esac
	done <"$1"
	return 1
}

# uptime_cs - the uptime in centiseconds (/proc/uptime has two decimals).
uptime_cs() {
	local up _
	read -r up _ </proc/uptime
	echo $((10#${up%.*} * 100 + 10#${up#*.}))
}

for t in "${tests[@]}"; do
	name=${t##*/}
	name=${name%.sh}
	if [[ $asked == *" $name "* ]] || { [ "$arity" = 1 ] && required_on_onearg "$t"; }; then
		required+=("$name")
	fi
done
for name in $asked; do
	[ -f "$here/tests.d/$name.sh" ] || missing+=("$name")
done
export CDEV_REQUIRED="${required[*]}"

emit "KTAP version 1" "# cdev-compat-probe: kernel=$(uname -r) arity=$arity" \
	"# cdev-compat-required: ${required[*]} ${missing[*]}" "1..$((${#tests[@]} + ${#missing[@]}))"
failed=0 passed=0 skipped=0
n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=${t##*/}
	name=${name%.sh}
	is_required=0
	[[ " ${required[*]} " != *" $name "* ]] || is_required=1
	rc=0
	t0=$(uptime_cs)
	out=$(timeout --kill-after=10 "$script_timeout" bash "$t" 2>&1) || rc=$?
	t1=$(uptime_cs)
	# What the script printed: its plan, results, skips, and whether it reached ktap_done.
	plan='' results=0 fails=0 skips=0 done=0 why=() skip_reason='' body=()
	while IFS= read -r line; do
		case "$line" in
		1..[0-9]*)
			if [ "$results" -eq 0 ] && [ -z "$plan" ]; then
				plan=${line#1..}
			else
				why+=("a plan ($line) after its first result or twice")
			fi
			continue
			;;
		"ok "*"# SKIP"*)
			results=$((results + 1)) skips=$((skips + 1))
			[ -n "$skip_reason" ] || skip_reason=${line#*# SKIP}
			;;
		"ok "*) results=$((results + 1)) ;;
		"not ok "*) results=$((results + 1)) fails=$((fails + 1)) ;;
		"# ktap-done:"*) done=1 ;;
		esac
		body+=("$line")
	done <<<"$out"
	case "$rc" in
	0 | 1) [ "$rc" -eq 0 ] || [ "$fails" -gt 0 ] || why+=("exit status 1 with no failed result") ;;
	124 | 137) why+=("timed out after ${script_timeout}s and was killed (status $rc)") ;;
	*) why+=("exit status $rc") ;;
	esac
	[ "$results" -gt 0 ] || why+=("printed no result")
	if [ -n "$plan" ] && [ "$results" -ne "$plan" ]; then
		why+=("printed $results results but planned $plan")
	fi
	[ "$done" -eq 1 ] || why+=("ended before ktap_done (died on the way)")
	if [ "$is_required" -eq 1 ] && [ "$skips" -gt 0 ]; then
		why+=("required on this kernel, but skipped $skips of its tests")
	fi
	emit "    KTAP version 1" "    1..${plan:-$results}"
	[ -n "$plan" ] || emit "    # $name declared no plan (ktap_plan): the count is its own"
	for line in "${body[@]}"; do
		case "$line" in
		"ok "* | "not ok "* | "#"* | " "*) emit "    $line" ;;
		"") ;;
		*) emit "    # $line" ;; # stray stderr: keep it, as a diagnostic
		esac
	done
	if [ "$fails" -gt 0 ] || [ ${#why[@]} -gt 0 ]; then
		# The first reason is the cause (a timeout before the missed plan it leads to): it goes
		# last, right before the result line, where the host's report takes the error line from.
		for ((i = ${#why[@]} - 1; i >= 0; i--)); do
			emit "# $name: ${why[i]}"
		done
		emit "not ok $n $name"
		failed=$((failed + 1))
	elif [ "$skips" -eq "$results" ]; then
		emit "ok $n $name # SKIP${skip_reason}"
		skipped=$((skipped + 1))
	else
		emit "ok $n $name"
		passed=$((passed + 1))
	fi
	t1=$(((t1 - t0 + 5) / 10))
	emit "# cdev-compat-time: $name $((t1 / 10)).$((t1 % 10)) s"
done
for name in "${missing[@]}"; do
	n=$((n + 1))
	emit "# $name: required by the kernel command line (cdev_require=), but there is no tests.d/$name.sh"
	emit "not ok $n $name"
	failed=$((failed + 1))
done
emit "# cdev-compat-guest: $n tests, $passed passed, $failed failed, $skipped skipped"
trap - ERR
finish $((failed > 0 ? 1 : 0))
