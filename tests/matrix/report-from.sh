#!/bin/bash
# report-from.sh DIR... - the matrix table again, from kept results: each DIR is a
# build/matrix directory of a run (run.env and <kernel>/result.env); kernels are taken in the
# usual order from all of them (a later DIR's kernel wins). The reusable workflow's last job
# runs it over the per-kernel jobs' artifacts to make one table. Writes the merged results to
# build/matrix-merged/ (summary.txt, summary.md, junit.xml); exits non-zero when a row or cell
# failed, like the run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../scripts/lib.sh
. "$here/../../scripts/lib.sh"
# shellcheck source=lib/progress.sh
. "$here/lib/progress.sh"
# shellcheck source=lib/kernels.sh
. "$here/lib/kernels.sh"
# shellcheck source=lib/result.sh
. "$here/lib/result.sh"
# shellcheck source=lib/run-kernel.sh
. "$here/lib/run-kernel.sh"
# shellcheck source=lib/report.sh
. "$here/lib/report.sh"
# shellcheck source=lib/junit.sh
. "$here/lib/junit.sh"
# shellcheck source=lib/json.sh
. "$here/lib/json.sh"

[ $# -ge 1 ] || die "usage: $0 DIR... (build/matrix directories of runs)"
T_RUN=$(date +%s.%N)
MATRIX_DIR=${MERGED_DIR:-$BUILD_DIR/matrix-merged}
rm -rf "$MATRIX_DIR"
mkdir -p "$MATRIX_DIR"
kernels=()
for d in "$@"; do
	[ -f "$d/run.env" ] || die "$d has no run.env (not a matrix run's build/matrix)"
	# shellcheck disable=SC1091
	. "$d/run.env"
	for k in ${MATRIX_KERNELS_ALL//,/ }; do
		[ -f "$d/$k/result.env" ] || continue
		rm -rf "${MATRIX_DIR:?}/$k"
		cp -r "$d/$k" "$MATRIX_DIR/$k"
	done
done
for k in ${MATRIX_KERNELS_ALL//,/ }; do
	[ ! -d "$MATRIX_DIR/$k" ] || kernels+=("$k")
done
[ ${#kernels[@]} -gt 0 ] || die "no kernel results in $*"
matrix_report "${kernels[@]}"
