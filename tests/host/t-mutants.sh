#!/bin/bash
# t-mutants.sh - the host mutants (tests/mutants/, Tag: host) inside make check: each applied
# to a scratch copy of the project, its test command must then fail (killed), for the reason
# its Expect line names. No control runs here: make check has just run the same suites on the
# unmutated tree. The slow ones ("Slow:" header: the package scenarios' chroot and DKMS
# builds, 4-5 min each) are left to `make mutants`, which runs them all with controls;
# `make mutants GUEST=1` adds the guest mutants.
# Part: make test (its own part, after make check; also `make mutants`)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

shopt -s nullglob
n=0
for m in "$CDEV_TOP"/tests/mutants/*.patch; do
	grep -qx 'Tag: host' "$m" && ! grep -q '^Slow: ' "$m" && n=$((n + 1))
done
plan "$n"
"$CDEV_TOP/tests/mutants/run-mutants.sh" --tap --no-control --skip-slow
