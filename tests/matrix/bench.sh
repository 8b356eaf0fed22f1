#!/bin/bash
# Matrix timings for `make bench`: printed with their targets, never asserted. KERNELS as for
# the matrix (default: a vendor run's kernels for the vendor runs, the suites' kernels for the
# others); each run's output and results are kept in build/bench/<run>/.
#   vendor        tests/vendor-example copied to build/bench/vendor-example and edited (a
#                 comment with the time), then `make matrix MODULE=...`: the warm vendor
#                 matrix after an edit (wall; target <= 60 s over the vendor kernels) and per
#                 kernel the host build and the boot-to-results (target <= 10 s)
#   vendor-noslub the same without slub_debug=FZP page_poison=1: their cost per boot
#   functional    `make matrix`, the functional suite (wall; target <= 2 min warm on the faster
#                 host, <= 4 min on the slower kind)
#   bench         the in-guest benchmark (suite bench, cdev_bench=BENCH_SIZE, default 5x20000),
#                 its "# bench:" lines
# Runs whose images are not cached build them first; CDEV_BENCH_COLD=1 rebuilds them (mkosi's
# incremental and package caches still apply) and the first run's figures are then cold.
# Exit status: non-zero when a run failed (its figures are still printed).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../scripts/lib.sh"

# shellcheck source=lib/kernels.sh
. "$CDEV_TOP/tests/matrix/lib/kernels.sh"
vendor_kernels=${KERNELS:-$MATRIX_KERNELS_VENDOR}
suite_kernels=${KERNELS:-$MATRIX_KERNELS_SUITE}
# the table's rows: every kernel of either list, in the usual order
kernels=()
for k in ${MATRIX_KERNELS_ALL//,/ }; do
	case ",${vendor_kernels// /},${suite_kernels// /}," in *",$k,"*) kernels+=("$k") ;; esac
done
IFS=, read -r -a nvendor <<<"${vendor_kernels// /}"
IFS=, read -r -a nsuite <<<"${suite_kernels// /}"
out=$BUILD_DIR/bench
mkdir -p "$out"
status=0

# run NAME ENV... -- CMD... - run CMD with ENV, output in build/bench/NAME.log, results copied
# to build/bench/NAME/; sets WALL.
run() {
	local name=$1 t0 rc=0 envs=()
	shift
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	log "bench: $name (log $out/$name.log)"
	t0=$(date +%s.%N)
	env "${envs[@]}" "$@" >"$out/$name.log" 2>&1 || rc=$?
	WALL=$(elapsed "$t0")
	rm -rf "${out:?}/$name"
	cp -r "$BUILD_DIR/matrix" "$out/$name"
	rm -rf "$out/$name/overlay"
	[ "$rc" -eq 0 ] || { log "bench: $name failed (status $rc): see $out/$name.log"; status=1; }
}

# field RUN K VAR [FILE] - a value of RUN's result.env (or FILE: build.env) for kernel K.
field() {
	(
		# shellcheck disable=SC1090,SC1091
		. "$out/$1/$2/${4:-result.env}" 2>/dev/null && eval "printf '%s' \"\${$3:-?}\""
	) || printf '?'
}

cold=() first=vendor-warmup
[ -z "${CDEV_BENCH_COLD:-}" ] || cold=(CDEV_MATRIX_REBUILD=1) first=vendor-cold
matrix=$CDEV_TOP/tests/matrix/run-matrix.sh

# The vendor run after an edit. A first run (not timed) makes sure the images exist.
src=$out/vendor-example
rm -rf "$src"
cp -r "$CDEV_TOP/tests/vendor-example" "$src"
if [ ${#cold[@]} -gt 0 ]; then
	run vendor-cold "${cold[@]}" KERNELS="$vendor_kernels" MODULE="$src" MODULE_TEST="$src/test.sh" -- "$matrix"
	cold_wall=$WALL
else
	run vendor-warmup KERNELS="$vendor_kernels" MODULE="$src" MODULE_TEST="$src/test.sh" -- "$matrix"
fi
printf '/* edited for make bench at %s */\n' "$(date -Is)" >>"$src/vendor_chardev.c"
run vendor KERNELS="$vendor_kernels" MODULE="$src" MODULE_TEST="$src/test.sh" -- "$matrix"
vendor_wall=$WALL
run vendor-noslub KERNELS="$vendor_kernels" CDEV_MATRIX_SLUB_DEBUG=0 MODULE="$src" MODULE_TEST="$src/test.sh" -- "$matrix"
run functional KERNELS="$suite_kernels" -- "$matrix"
functional_wall=$WALL
run bench KERNELS="$suite_kernels" CDEV_MATRIX_JOBS=1 CDEV_MATRIX_APPEND="cdev_bench=${BENCH_SIZE:-5x20000}" -- "$matrix" bench

printf '\nmatrix bench (seconds; %s, %d cores, load average now %s)\n' "$(sed -n 's/^matrix: .*accel: \([a-z]*\).*/\1/p' "$out/vendor.log" | head -n1)" \
	"$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s | %-12s | %-11s | %-22s | %-22s | %-12s | %-14s\n' kernel "image build" "vendor build" \
	"vendor boot-to-results" "without slub_debug" "slub_debug +" "functional boot"
printf '%s\n' "---------------|--------------|-------------|------------------------|------------------------|--------------|---------------"
# (a kernel that only one of the runs booted shows "-" in the other's columns)
for k in "${kernels[@]}"; do
	first_run=$first b="-" n="-" d="-" vb="-" f="-"
	case ",${vendor_kernels// /}," in
	*",$k,"*)
		b=$(field vendor "$k" R_BOOT_S)
		n=$(field vendor-noslub "$k" R_BOOT_S)
		d=$(awk -v a="$b" -v b="$n" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.1f", a - b; else print "?" }')
		vb=$(field vendor "$k" BUILD_S build.env)
		b="$b (target <= 10)"
		;;
	*) first_run=functional ;;
	esac
	case ",${suite_kernels// /}," in *",$k,"*) f=$(field functional "$k" R_BOOT_S) ;; esac
	img=$(field "$first_run" "$k" R_IMAGE_S)
	[ "$(field "$first_run" "$k" R_IMAGE_CACHED)" != yes ] || img="$img (cached)"
	printf '%-14s | %-12s | %-11s | %-22s | %-22s | %-12s | %-14s\n' "$k" "$img" "$vb" "$b" "$n" "$d" "$f"
done
[ -z "${cold_wall:-}" ] || printf 'cold vendor matrix (images rebuilt): %ss wall\n' "$cold_wall"
printf 'warm vendor matrix after an edit, %d kernels: %ss wall (target <= 60)\n' "${#nvendor[@]}" "$vendor_wall"
printf 'warm make matrix (functional suite), %d kernels: %ss wall (target <= 120 on the faster host, <= 240 on the slower kind, issue 34)\n' "${#nsuite[@]}" "$functional_wall"
printf '\nin-guest benchmark (open+close and 1-byte read; a: register_chrdev, b: cdev-compat helpers, c: unmodified driver in redirect mode)\n'
for k in "${nsuite[@]}"; do
	sed -n 's/^ *# bench: /bench: /p' "$out/bench/$k/ktap.txt" 2>/dev/null || true
done
exit "$status"
