#!/bin/bash
# In-guest test runner. Runs every tests/guest/tests.d/NN-name.sh in order and prints one KTAP
# document: each script is a test whose result lines become its subtests. Also prints the probe
# summary line the matrix report reads:
#   # cdev-compat-probe: kernel=<uname -r> arity=<1|2|?>
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
	local n i
	modprobe -q virtio_console 2>/dev/null || true
	for i in $(seq 1 50); do
		for n in /sys/class/virtio-ports/*/name; do
			[ -e "$n" ] || continue
			if [ "$(cat "$n")" = "$port_name" ]; then
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

emit "KTAP version 1" "# cdev-compat-probe: kernel=$(uname -r) arity=$arity" "1..${#tests[@]}"
failed=0
n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	rc=0
	out=$(bash "$t" 2>&1) || rc=$?
	results=$(grep -cE '^(not )?ok [0-9]+' <<<"$out" || true)
	emit "    KTAP version 1" "    1..$results"
	while IFS= read -r line; do
		case "$line" in
		"ok "* | "not ok "* | "#"* | " "*) emit "    $line" ;;
		"") ;;
		*) emit "    # $line" ;; # stray stderr: keep it, as a diagnostic
		esac
	done <<<"$out"
	if [ "$rc" -eq 0 ] && ! grep -qE '^not ok' <<<"$out"; then
		emit "ok $n $name"
	else
		emit "# $name: exit status $rc"
		emit "not ok $n $name"
		failed=$((failed + 1))
	fi
done
emit "# cdev-compat-guest: $n tests, $failed failed"
trap - ERR
finish $((failed > 0 ? 1 : 0))
