#!/bin/bash
# The cdev-compat helpers' registrations, driven through /dev/cdev_shim_ctl (issue 6 §1):
# dynamic and fixed majors; counts 1, 256 and 1024 with minors above 255 reachable through
# their nodes; a range that spills into the next major; two registrations sharing a major;
# -EBUSY on a clash; -EINVAL for a zero count, an out-of-range major and a range past the
# last dev_t. Each region's devices report its own name, minor and index (inode->i_cdev).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

ktap_check load shim_load
before=$(chrdevs)

# reg NAME MAJOR BASEMINOR COUNT NODES - register; sets ID, MAJ, MIN; one result line.
reg() {
	local name=$1 out
	shift
	out=$("$SHIM_TEST" register "$@") || { ktap_fail "$name" "register $*: $out"; return 1; }
	ID=$(field id "$out") MAJ=$(field major "$out") MIN=$(field minor "$out")
	ktap_ok "$name"
	ktap_diag "$name: id=$ID first=$MAJ:$MIN"
}

# expect_error NAME ERRNO MAJOR BASEMINOR COUNT - the registration fails with ERRNO and
# leaves /proc/devices as it was.
expect_error() {
	local name=$1 want=$2 out snap
	shift 2
	snap=$(chrdevs)
	out=$("$SHIM_TEST" register "$@" 0)
	if [ "$out" = "error=$want" ] && [ "$(chrdevs)" = "$snap" ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "register $*: got '$out', want error=$want and /proc/devices unchanged"
	fi
}

unreg() {
	"$SHIM_TEST" unregister "$1" >/dev/null
}

# whoami_is NAME NODE KEY=VALUE... - the device behind NODE answers with these fields.
whoami_is() {
	local name=$1 node=$2 out kv
	shift 2
	out=$("$SHIM_TEST" whoami "$node" 2>&1)
	for kv in "$@"; do
		[ "$(field "${kv%%=*}" "$out")" = "${kv#*=}" ] ||
			{ ktap_fail "$name" "$node: '$out', want $*"; return 1; }
	done
	ktap_ok "$name"
}

# Dynamic major, count 1: the node is named by the prefix alone.
if reg dynamic_count_1 0 0 1 1; then
	wait_for 5 test -c "/dev/cdev_shim_t${ID}"
	whoami_is dynamic_count_1_node "/dev/cdev_shim_t${ID}" "dev=cdev_shim_t$ID" minor=0 index=0
	dyn=$MAJ
	unreg "$ID"
	# Fixed major: the one just freed.
	if reg fixed_major "$dyn" 0 1 0; then
		expect fixed_major_is_kept "got $MAJ, want $dyn" test "$MAJ" = "$dyn"
		unreg "$ID"
	fi
fi

# Count 256 and 1024: minors above 255 through nodes.
for count in 256 1024; do
	if reg "count_$count" 0 0 "$count" 1; then
		last=$((count - 1))
		if wait_for 10 test -c "/dev/cdev_shim_t${ID}_$last"; then
			n=0
			for node in /dev/cdev_shim_t"${ID}"_*; do [ ! -c "$node" ] || n=$((n + 1)); done
			expect "count_${count}_nodes" "$n nodes, want $count" test "$n" -eq "$count"
			whoami_is "count_${count}_last_minor" "/dev/cdev_shim_t${ID}_$last" \
				"major=$MAJ" "minor=$last" "index=$last"
		else
			ktap_fail "count_${count}_nodes" "/dev/cdev_shim_t${ID}_$last never appeared"
		fi
		unreg "$ID"
		expect "count_${count}_nodes_removed" "nodes left after unregister" \
			wait_for 10 eval "! compgen -G '/dev/cdev_shim_t${ID}_*' >/dev/null"
	fi
done

# A range that spills into the next major: the last 2 minors of M and the first 2 of M+1.
spill=
for m in 60 61 62 120 121 122 123 124 125 126; do
	if [ "$(free_major "$m" "$m")" = "$m" ] && [ "$(free_major $((m + 1)) $((m + 1)))" = $((m + 1)) ]; then
		spill=$m
		break
	fi
done
if [ -z "$spill" ]; then
	ktap_fail spill_range "no two free adjacent majors among 60-63, 120-127"
elif reg spill_range "$spill" 1048574 4 1; then
	lines=$(majors_of "cdev_shim_t$ID")
	expect spill_range_proc_devices "/proc/devices majors for cdev_shim_t$ID: '$lines', want '$spill $((spill + 1))'" \
		test "$lines" = "$spill $((spill + 1)) "
	wait_for 5 test -c "/dev/cdev_shim_t${ID}_1048577"
	whoami_is spill_range_first_minor "/dev/cdev_shim_t${ID}_1048574" "major=$spill" minor=1048574 index=0
	whoami_is spill_range_next_major "/dev/cdev_shim_t${ID}_1048577" "major=$((spill + 1))" minor=1 index=3
	spill_id=$ID
	# The next major's minors 0..1 are taken, 2.. are not: a clash and a neighbour.
	expect_error spill_range_clash EBUSY "$((spill + 1))" 1 1
	if reg spill_neighbour "$((spill + 1))" 2 1 0; then unreg "$ID"; fi
	unreg "$spill_id"
fi

# Two unrelated registrations sharing one major, then clashes with them.
if reg shared_major_a 0 0 10 0; then
	a=$ID shared=$MAJ
	if reg shared_major_b "$shared" 10 10 0; then
		b=$ID
		n=$(major_lines "$shared")
		expect shared_major_two_lines "$n lines for major $shared" test "$n" -eq 2
		expect_error clash_ebusy EBUSY "$shared" 5 10
		expect_error clash_inside_ebusy EBUSY "$shared" 12 1
		unreg "$b"
	fi
	unreg "$a"
fi

expect_error zero_count_einval EINVAL 0 0 0
expect_error major_beyond_dev_t_einval EINVAL 5000 0 1
expect_error major_beyond_chrdev_max_einval EINVAL 600 0 1
expect_error past_last_dev_t_einval EINVAL 4095 1048575 2
expect_error baseminor_beyond_minor_einval EINVAL 0 1048576 1

expect proc_devices_restored "$(lines_changed "$before" "$(chrdevs)")" \
	test "$(chrdevs)" = "$before"
ktap_check unload shim_unload
ktap_done
