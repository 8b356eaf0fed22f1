#!/bin/bash
# build-kernels.sh [LIST] - `make kernel`: build (or take from the cache) every one-arg kernel of
# a default kernel list (tests/matrix/kernels/: suite, the default, or vendor), one after the
# other (a kernel build takes both cores), with kernel/build-kernel.sh --base BASE FLAVOUR.
# Prints what each printed: its .debs and vmlinuz.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=../tests/matrix/lib/kernels.sh
. "$CDEV_TOP/tests/matrix/lib/kernels.sh"

list=${1:-suite}
case "$list" in suite | vendor) ;; *) die "unknown list '$list' (suite, vendor)" ;; esac
while read -r k base flavour <&3; do
	log "$k: kernel/build-kernel.sh --base $base $flavour"
	"$CDEV_TOP/kernel/build-kernel.sh" --base "$base" "$flavour"
done 3< <(kernel_builds "$list")
