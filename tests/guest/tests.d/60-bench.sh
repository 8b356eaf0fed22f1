#!/bin/bash
# Benchmarks (issue 6 §4), printed as "# bench:" lines, asserting nothing about speed:
# open+close ns/op and 1-byte read ns/op for three devices that share one file_operations
# (shim/cdev_shim_bench.c: no lock, no lookup) and differ only in how they were registered:
# (a) the kernel's own register_chrdev() (cdev_shim_bench_native), (b) the cdev-compat
# helpers (cdev_shim_bench_cdev), (c) an unmodified register_chrdev() in redirect mode
# (cdev_shim_bench_redirect); ratios b/a and c/a per round, with their spread and target.
# The size comes from the kernel command line (cdev_bench=ROUNDSxOPS, as make bench sets it)
# or BENCH_ROUNDS/BENCH_OPS; a matrix boot runs a short 3x1000.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

size=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^cdev_bench=\([0-9]*x[0-9]*\)$/\1/p')
rounds=${BENCH_ROUNDS:-${size%x*}} ops=${BENCH_OPS:-${size#*x}}
rounds=${rounds:-3} ops=${ops:-1000}
ktap_check load shim_load
declare -A dev=([a]=/dev/cdev_shim_bench_native [b]=/dev/cdev_shim_bench_cdev
	[c]=/dev/cdev_shim_bench_redirect)
for k in a b c; do
	rm -f "${dev[$k]}"
	maj=$(major_of "${dev[$k]#/dev/}")
	if [ -z "$maj" ] || ! mknod "${dev[$k]}" c "$maj" 0; then
		ktap_fail bench_runs "no ${dev[$k]#/dev/} in /proc/devices, or mknod failed"
		ktap_done
		exit
	fi
done
: >/tmp/bench.tsv
for ((r = 1; r <= rounds; r++)); do
	for k in a b c; do
		out=$("$SHIM_TEST" bench "${dev[$k]}" "$ops") || { ktap_fail bench_runs "$k: $out"; ktap_done; exit; }
		printf '%d\t%s\t%s\t%s\n' "$r" "$k" "$(field open_close_ns "$out")" "$(field read1_ns "$out")" >>/tmp/bench.tsv
	done
done
ktap_ok bench_runs
# Per metric: each device's median ns/op, then b/a and c/a per round with median, min, max.
awk -F'\t' -v rounds="$rounds" -v ops="$ops" -v kernel="$(uname -r)" \
	-f "$(dirname "$0")/../lib/bench-summary.awk" /tmp/bench.tsv
rm -f "${dev[@]}"
ktap_check unload shim_unload
ktap_done
