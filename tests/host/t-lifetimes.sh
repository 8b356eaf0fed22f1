#!/bin/bash
# t-lifetimes.sh - the lifetime rules that no guest run can show by itself (issue 32,
# docs/lifetimes.md):
# - no module code drops a reference to its own module (kobject_put() of a module's mkobj,
#   module_put(THIS_MODULE)), and none takes one that it would have to drop itself: cdev-compat,
#   the shim, the test drivers and every C block of the docs leave each final put to the kernel;
# - the debug one-arg kernels are built with generic KASAN, and a KASAN report in the kernel log
#   fails a suite row (99-kernel-log) and a vendor run (its log cell);
# - a CDEV_COMPAT_PROBED from the environment, probed for another kernel, is not used: a module
#   built against the one-arg headers with the two-arg result in the environment records the
#   one-arg arity.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

work=$TEST_WORK/lifetimes
rm -rf "$work"
mkdir -p "$work"

# Module code that drops (or takes, to drop later) its own module's reference.
pattern='kobject_(put|get)\([^;]*mkobj\.kobj|module_put\(THIS_MODULE\)|__module_get\(THIS_MODULE\)'
hits=$(cd "$CDEV_TOP" && { grep -rnE "$pattern" compat shim tests/host/drivers tests/migrate-corpus \
	tests/vendor-example docs --include='*.c' --include='*.h' --include='*.md' || true; })
# cdev-compat's own cdevs hold the module's kobject through cdev_add(), which the kernel's
# release drops: cdev_compat_module_kobj() only names it.
check "no module code takes or drops its own module's reference (${hits:-none})" test -z "$hits"

debug=$CDEV_TOP/kernel/config/debug.config
check "the debug one-arg kernels are built with generic KASAN" \
	eval "grep -qx CONFIG_KASAN=y '$debug' && grep -qx CONFIG_KASAN_GENERIC=y '$debug'"
# matches_kasan FILE - FILE's kernel-log pattern (its pattern= or log_pattern= line) matches
# a KASAN report.
matches_kasan() {
	local pat
	pat=$(sed -nE "s/^(log_)?pattern='(.*)'$/\\2/p" "$CDEV_TOP/$1")
	[ -n "$pat" ] && grep -qE "$pat" <<<'[   12.345678] BUG: KASAN: use-after-free in cdev_purge+0x2e/0x90'
}
for f in tests/guest/tests.d/99-kernel-log.sh tests/guest/vendor/run-vendor.sh; do
	check "$f's kernel-log pattern matches a KASAN report" matches_kasan "$f"
done

# A result from the environment for another kernel.
twoarg=$("$CDEV_TOP/compat/probes/run-probes.sh" "$(headers_twoarg)")
CDEV_COMPAT_PROBED=$twoarg check_shim_build "$(headers_onearg)" "$work/env" \
	"the one-arg headers with the two-arg probe result in CDEV_COMPAT_PROBED" 1
