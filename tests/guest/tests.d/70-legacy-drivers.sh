#!/bin/bash
# Real legacy char drivers (issue 6 §2, issue 7 §2): cpuid, msr, xz_dec_test and ppp_generic
# from the Debian linux-source of this guest's own kernel, built out of tree when the image
# was made (tests/legacy/, mkosi.postinst.chroot) and installed under $LEGACY. For each
# variant of the manifest (unmodified with the header force-included; converted by
# cdev-compat-migrate --cdev; on bookworm and onearg also the other arity's source) and each
# driver: it built; it loads as an out-of-tree module (the in-tree copy is unloaded first and
# must not be built in); /proc/devices gains exactly its line; it works:
#   cpuid        leaf 0 through /dev/cpu/N/cpuid equals the CPUID instruction's answer
#   msr          IA32_TSC_AUX through /dev/cpu/N/msr equals what RDTSCP returns on CPU N,
#                and CPU 0's IA32_APIC_BASE is a boot CPU's (IA32_TSC, the issue's example,
#                reads 0 under QEMU's TCG)
#   xz_dec_test  a .xz stream written to its device decodes: the CRC32 it logs is the data's
#   ppp_generic  /dev/ppp opens and PPPIOCNEWUNIT creates ppp<N>, gone after the close
# and it unloads, leaving /proc/devices as before and its device node gone (or, if a static
# node existed before the load, still there).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

LEGACY=${LEGACY:-/usr/lib/cdev-compat/legacy-drivers}
TEST=${LEGACY_TEST:-/usr/lib/cdev-compat/bin/legacy-driver-test}
DATA=$(cd "$(dirname "$0")/.." && pwd)/data
builtin_list=/lib/modules/$(uname -r)/modules.builtin

# The /proc/devices line each driver adds ("*" = a dynamic major).
declare -A chrdev=([cpuid]="203 cpu/cpuid" [msr]="202 cpu/msr" [xz_dec_test]="* xz_dec_test"
	[ppp_generic]="108 ppp")

if [ ! -s "$LEGACY/manifest" ]; then
	ktap_fail legacy_drivers_staged "no $LEGACY/manifest: the image was built without the legacy drivers"
	ktap_done
	exit
fi
[ ! -s "$LEGACY/sources" ] || ktap_diag "sources: $(tr '\n' ';' <"$LEGACY/sources")"

# The manifest: "VARIANT MODULE driver|dependency" lines.
drivers=() all_mods=" "
while read -r v m kind; do
	[ "$kind" != driver ] || drivers+=("$v $m")
	[[ $all_mods == *" $m "* ]] || all_mods+="$m "
done <"$LEGACY/manifest"

# Nothing of ours may be built in, and no in-tree copy may stay loaded.
builtin_mods=$(<"$builtin_list") builtin=
for m in $all_mods; do
	[[ $'\n'$builtin_mods$'\n' != *"/$m.ko"$'\n'* ]] || builtin+="$m "
done
expect legacy_drivers_not_built_in "built into $(uname -r), the in-tree copy holds the major: $builtin" \
	test -z "$builtin"
for m in ppp_generic slhc cpuid msr xz_dec_test; do
	if [ -e "/sys/module/$m/refcnt" ]; then
		ktap_diag "unloading the in-tree $m loaded at boot"
		rmmod "$m" || ktap_fail "in_tree_${m}_unloaded" "rmmod $m failed"
	fi
done

# load V M - insmod V's build of M (ppp_generic after V's slhc).
load() {
	local v=$1 m=$2
	if [ "$m" = ppp_generic ]; then
		insmod "$LEGACY/$v/slhc.ko" || return 1
	fi
	insmod "$LEGACY/$v/$m.ko"
}

# unload M - rmmod M (and slhc after ppp_generic).
unload() {
	local rc=0
	rmmod "$1" || rc=1
	if [ "$1" = ppp_generic ] && [ -e /sys/module/slhc/refcnt ]; then
		rmmod slhc || rc=1
	fi
	return "$rc"
}

# cpus - the number of CPUs the kernel brought up (/sys/devices/system/cpu/online: "0-1,3").
cpus() {
	local online range n=0
	read -r online </sys/devices/system/cpu/online
	for range in ${online//,/ }; do
		n=$((n + ${range#*-} - ${range%-*} + 1))
	done
	echo "$n"
}

# works_cpuid / works_msr / works_xz_dec_test / works_ppp_generic - the driver's own check;
# output is diagnostics.
works_cpuid() {
	local n rc=0 nodes=0
	wait_for 5 test -c /dev/cpu/0/cpuid || { echo "/dev/cpu/0/cpuid did not appear"; return 1; }
	for n in /dev/cpu/[0-9]*/cpuid; do
		nodes=$((nodes + 1))
		echo "$n:"
		"$TEST" cpuid "$n" 2>&1 || rc=1
	done
	[ "$nodes" -eq "$(cpus)" ] || { echo "$nodes cpuid nodes for $(cpus) CPUs"; rc=1; }
	return "$rc"
}

# TSC_AUX holds (node << 12 | cpu), so CPU 0's is 0, as an MSR QEMU does not implement would
# read: on CPU 0 the program also checks IA32_APIC_BASE, which is not 0 on any x86 boot CPU.
works_msr() {
	local n cpu rc=0 out
	wait_for 5 test -c /dev/cpu/0/msr || { echo "/dev/cpu/0/msr did not appear"; return 1; }
	for n in /dev/cpu/[0-9]*/msr; do
		cpu=${n#/dev/cpu/}
		cpu=${cpu%/msr}
		out=$("$TEST" msr "$n" "$cpu" 2>&1) || rc=1
		echo "$out"
	done
	return "$rc"
}

works_xz_dec_test() {
	local major node=/dev/xz_dec_test_legacy mark got want log
	major=$(major_of xz_dec_test)
	[ -n "$major" ] || { echo "no xz_dec_test in /proc/devices"; return 1; }
	[ ! -e "$node" ] || rm -f "$node"
	mknod "$node" c "$major" 0 || return 1
	mark="cdev-compat-test: xz_dec_test $RANDOM$RANDOM"
	echo "$mark" >/dev/kmsg
	cat "$DATA/xz-sample.xz" >"$node" || { echo "writing the .xz stream failed"; rm -f "$node"; return 1; }
	rm -f "$node"
	want=$(<"$DATA/xz-sample.crc32")
	log=$(log_since "$mark")
	got=
	while [[ $log =~ XZ_STREAM_END,\ CRC32\ =\ 0x([0-9A-Fa-f]+) ]]; do
		got=${BASH_REMATCH[1]}
		log=${log#*"${BASH_REMATCH[0]}"}
	done
	echo "kernel log: '${got:+XZ_STREAM_END, CRC32 = 0x$got}', want CRC32 = 0x$want of $(<"$DATA/xz-sample.size") bytes"
	[ "$got" = "$want" ]
}

works_ppp_generic() {
	local out unit mark="cdev-compat-test: ppp $RANDOM$RANDOM"
	wait_for 5 test -c /dev/ppp || { echo "/dev/ppp did not appear"; return 1; }
	echo "$mark" >/dev/kmsg
	out=$("$TEST" ppp /dev/ppp 2>&1) || { echo "$out"; return 1; }
	echo "$out"
	unit=$(field unit "$out")
	wait_for 5 test ! -e "/sys/class/net/ppp$unit" || { echo "ppp$unit still there after the close"; return 1; }
	ppp_device_released "$mark" "$unit"
}

# ppp_device_released MARK UNIT - on a kernel with late kobject releases
# (CONFIG_DEBUG_KOBJECT_RELEASE: the 6.1 debug one), wait until the device of ppp<UNIT>, whose
# last put was logged after MARK, has been released. Its release (device_release) reads the
# device's type, ppp_generic's static ppp_type, 1-4 s after the last put, and nothing makes the
# module's unload wait for it: rmmod ppp_generic before then frees the type under the release
# (an oops in device_release, in a kworker; the kernel's own ppp_generic does this, unmodified
# or not, nothing of cdev-compat's). So: find the release scheduled ("kobject: 'ppp<UNIT>'
# ...: kobject_release, ... (delayed D)"), then wait for the longest delay the kernel picks
# (4 s) and 1 s more. A kernel that logs no late release at all has none: no wait.
ppp_device_released() {
	if ! late_release_logged "$1" "ppp$2"; then
		late_release_logged '' "[^']*" || return 0
		if ! wait_for 10 late_release_logged "$1" "ppp$2"; then
			echo "no late release of the ppp$2 device logged within 10 s"
			return 1
		fi
	fi
	echo "the ppp$2 device's late release was scheduled: 5 s before the unload"
	sleep 5
}

# late_release_logged MARK NAME - the kernel log after MARK (all of it: '') has the late
# release of a kobject NAME (a regular expression).
late_release_logged() {
	local re="kobject: '$2' \\([^)]*\\): kobject_release, parent [^ ]+ \\(delayed [0-9]+\\)"
	if [ -n "$1" ]; then
		log_since "$1" | grep -qE "$re"
	else
		dmesg | grep -qE "$re"
	fi
}

# node_of M - the device node M's driver creates (xz_dec_test creates none).
node_of() {
	case "$1" in
	cpuid) echo /dev/cpu/0/cpuid ;;
	msr) echo /dev/cpu/0/msr ;;
	ppp_generic) echo /dev/ppp ;;
	esac
}

# node_restored NODE EXISTED - after the unload NODE is gone again, unless it EXISTED (yes/no)
# before the load: kmod's static nodes (modules.devname) create /dev/ppp at boot for a kernel
# that ships ppp_generic, so that opening it loads the module.
node_restored() {
	[ -n "$1" ] || return 0
	if [ "$2" = yes ]; then test -c "$1"; else wait_for 5 test ! -e "$1"; fi
}

# An unload runs in the background while the next driver loads: rmmod returns only when the
# module's kobject is released, which CONFIG_DEBUG_KOBJECT_RELEASE (the 6.1 debug one-arg
# kernel) delays by 1-4 s (twice for ppp_generic, then slhc). The driver's exit has run before
# that wait, so the checks after the unload run as soon as /proc/devices is as before; the
# unload's result follows when its rmmod returns (reap), at the latest before the same driver
# loads again (four drivers later, in the next variant).
declare -A unload_pid=() unload_test=() unload_why=() unload_t0=()
unload_out=$(mktemp -d)
trap 'rm -rf "$unload_out"' EXIT

# unload_start T M BEFORE - rmmod M (unload) in the background, T's result pending; then wait
# (at most 30 s) until /proc/devices is BEFORE again or the rmmod has ended.
unload_start() {
	local t=$1 m=$2 before=$3 pid
	unload "$m" >"$unload_out/$m" 2>&1 &
	pid=$!
	unload_pid[$m]=$pid unload_test[$m]=$t unload_why[$m]='' unload_t0[$m]=$SECONDS
	wait_for 30 unload_ran "$before" "$pid"
}

# unload_ran BEFORE PID - /proc/devices is BEFORE again, or the rmmod PID has ended.
unload_ran() {
	[ "$(chrdevs)" = "$1" ] || ! kill -0 "$2"
}

# reap [M] - wait for the background unload of M (of every driver: none given) and print its
# result: ok when rmmod succeeded and unload_why[M] is empty.
reap() {
	local m rc
	for m in "${!unload_pid[@]}"; do
		[ $# -eq 0 ] || [ "$m" = "$1" ] || continue
		rc=0
		wait "${unload_pid[$m]}" || rc=$?
		ktap_diag "rmmod $m returned after $((SECONDS - unload_t0[$m])) s"
		if [ "$rc" -ne 0 ]; then
			diag_lines "$(<"$unload_out/$m")"
			ktap_fail "${unload_test[$m]}" "rmmod failed"
		elif [ -n "${unload_why[$m]}" ]; then
			ktap_fail "${unload_test[$m]}" "${unload_why[$m]}"
		else
			ktap_ok "${unload_test[$m]}"
		fi
		unset "unload_pid[$m]" "unload_test[$m]" "unload_why[$m]" "unload_t0[$m]"
	done
}

# status_of V M - what V/status says of M's build.
status_of() {
	local mod st
	[ -r "$LEGACY/$1/status" ] || return 0
	while read -r mod st; do
		[ "$mod" != "$2" ] || echo "$st"
	done <"$LEGACY/$1/status"
}

for d in "${drivers[@]}"; do
	v=${d% *} m=${d#* }
	t=${v//-/_}_$m
	status=$(status_of "$v" "$m")
	if [ "$status" != ok ] || [ ! -f "$LEGACY/$v/$m.ko" ]; then
		tail -n 30 "$LEGACY/$v/build.log" 2>/dev/null | sed 's/^/# /'
		ktap_fail "${t}_builds" "the image build of $v/$m.c: ${status:-no status}"
		continue
	fi
	ktap_ok "${t}_builds"

	reap "$m"
	before=$(chrdevs)
	node=$(node_of "$m")
	existed=no
	[ -z "$node" ] || [ ! -e "$node" ] || existed=yes
	if ! out=$(load "$v" "$m" 2>&1); then
		diag_lines "$out"
		dmesg | tail -n 5 | sed 's/^/# /'
		ktap_fail "${t}_loads_out_of_tree" "insmod $v/$m.ko failed"
		unload "$m" >/dev/null 2>&1
		continue
	fi
	taint=
	[ ! -r "/sys/module/$m/taint" ] || read -r taint <"/sys/module/$m/taint"
	expect "${t}_loads_out_of_tree" "/sys/module/$m/taint is '$taint', want O (out-of-tree)" \
		test "${taint//[!O]/}" = O
	gained=$(lines_added "$before" "$(chrdevs)" ';')
	want=${chrdev[$m]}
	[ "${want%% *}" != "*" ] || want="$(major_of "${want#* }") ${want#* }"
	expect "${t}_proc_devices" "gained '$gained', want '$want;'" test "$gained" = "$want;"

	if out=$("works_$m" 2>&1); then
		diag_lines "$out"
		ktap_ok "${t}_works"
	else
		diag_lines "$out"
		ktap_fail "${t}_works"
	fi

	unload_start "${t}_unloads" "$m" "$before"
	if [ "$(chrdevs)" != "$before" ]; then
		unload_why[$m]="/proc/devices now differs by '$(lines_changed "$before" "$(chrdevs)")'"
	elif ! node_restored "$node" "$existed"; then
		unload_why[$m]="$node: existed before the load: $existed; after the unload: $(ls -l "$node" 2>&1)"
	fi
done
reap
ktap_done
