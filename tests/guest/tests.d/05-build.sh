#!/bin/bash
# What the image build compiled, reported from inside the guest of every target kernel: the
# packaged cdev_shim source built again with W=1 against this kernel's headers
# (mkosi.postinst.chroot keeps the log) has no warning and no error: the style rule
# "builds with W=1 without warnings on every target kernel".
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"

log=${SHIM_W1_LOG:-/usr/lib/cdev-compat/shim-w1.log}
if [ ! -f "$log" ]; then
	ktap_fail shim_w1_clean "no $log: the image build did not record the W=1 build"
else
	diags=$(grep -E '(warning|error):|build failed' "$log" || true)
	ktap_diag "W=1 build of cdev_shim for $(uname -r): $(grep -c ' CC ' "$log") compiles, $(grep -c . <<<"$diags") diagnostics"
	if [ -z "$diags" ] && grep -q 'cdev_shim\.ko' "$log"; then
		ktap_ok shim_w1_clean
	else
		printf '%s\n' "${diags:-no cdev_shim.ko in the log}" | head -n 20 | sed 's/^/# /'
		ktap_fail shim_w1_clean
	fi
fi
ktap_done
