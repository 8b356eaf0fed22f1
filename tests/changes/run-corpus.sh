#!/bin/bash
# run-corpus.sh - the API-change corpus through the vendor matrix (issue 33): each spelling
# (stage.sh) as a vendor's module, on every kernel of the "changes" list (KERNELS=a,b to pick),
# built with the documented force-include line against that kernel's headers, W=1, loaded,
# tested in the guest (changes-test: one result per change), unloaded, its kernel log read.
# Results in build/changes/SPELLING/ (the matrix's table, JUnit, JSON, logs). Prints both tables
# and last "N passed, N failed": a cell of a kernel is one result.
set -euo pipefail
# shellcheck source=../../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
# shellcheck source=../matrix/lib/kernels.sh
. "$CDEV_TOP/tests/matrix/lib/kernels.sh"

# The default kernels: the "changes" list, the suite's kernels but those with late kobject
# releases (onearg, the 6.1 debug kernel): the new spellings register a static class, as from
# 6.4 on, and a class's release reads it (class_release()); released 1-4 s late, after its
# module is gone, it read freed module memory (an oops in a kworker, a clean run of make test).
# The kernel's own static classes do the same, which is why 7.3's debug kernel has no late
# releases. The API these changes bridge on onearg is bookworm's, which runs the corpus.
kernels=${KERNELS:-$MATRIX_KERNELS_CHANGES}
passed=0 failed=0
for spelling in old new; do
	stage=$BUILD_DIR/changes/stage-$spelling out=$BUILD_DIR/changes/$spelling
	"$CDEV_TOP/tests/changes/stage.sh" "$stage" "$spelling" >/dev/null
	log "the $spelling spelling: $(grep -c '^obj-m' "$stage/Kbuild") modules, kernels $kernels"
	rc=0
	"$CDEV_TOP/scripts/cdev-compat-matrix" --module "$stage" --test "$stage/changes-test" \
		--kernels "$kernels" --output "$out" --clean || rc=$?
	[ "$rc" -ne 2 ] || die "the matrix could not run the $spelling spelling (status 2)"
	# One result per cell of each kernel (build, load, test, unload, log).
	p=$({ grep -o '"status": *"ok"' "$out/results.json" || true; } | wc -l)
	f=$({ grep -o '"status": *"\(fail\|hang\|not-run\|skip\)"' "$out/results.json" || true; } | wc -l)
	passed=$((passed + p)) failed=$((failed + f))
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || { failed=$((failed + 1)); log "the $spelling run failed (status $rc) with no failed cell"; }
done
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
