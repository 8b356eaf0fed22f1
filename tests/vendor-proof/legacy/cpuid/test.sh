#!/bin/bash
# cpuid's test in the vendor matrix: every CPU's node /dev/cpu/N/cpuid (made by devtmpfs from
# the driver's devnode() name) answers leaf 0 (a 16-byte read at offset 0: EAX, EBX, ECX,
# EDX) with the vendor string the kernel reports for that CPU in /proc/cpuinfo (EBX, EDX, ECX)
# and a maximum standard leaf of at least 1. Prints KTAP.
set -euo pipefail
mapfile -t nodes < <(ls /dev/cpu/*/cpuid 2>/dev/null)
want=$(awk -F': ' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo)
echo "KTAP version 1"
echo "1..$((${#nodes[@]} > 0 ? ${#nodes[@]} : 1))"
if [ ${#nodes[@]} -eq 0 ]; then
	echo "# no /dev/cpu/*/cpuid node"
	echo "not ok 1 nodes"
	exit 1
fi
fail=0 n=0
for node in "${nodes[@]}"; do
	n=$((n + 1))
	# leaf 0 as four little-endian words
	read -r eax ebx ecx edx < <(dd if="$node" bs=16 count=1 status=none | od -An -tu4 -w16)
	vendor=$(for w in "$ebx" "$edx" "$ecx"; do printf '%08x' "$w" | sed -E 's/(..)(..)(..)(..)/\4\3\2\1/'; done |
		sed 's/../\\x&/g')
	vendor=$(printf '%b' "$vendor")
	if [ "$vendor" = "$want" ] && [ "$eax" -ge 1 ]; then
		echo "ok $n $node: $vendor, max leaf $eax"
	else
		echo "# $node: vendor '$vendor' (expected '$want'), max leaf $eax"
		echo "not ok $n $node"
		fail=1
	fi
done
exit "$fail"
