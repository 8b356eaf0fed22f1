#!/bin/bash
# build-shim.sh [KDIR] - `make`: build cdev_shim.ko against a kernel build dir (default: the
# installed Debian 6.1 headers, linux-headers-amd64; never the running kernel) in
# build/shim/, leaving the source tree clean. Prints the module's path.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=../tests/host/lib.sh
. "$CDEV_TOP/tests/host/lib.sh"

kdir=${1:-${KDIR:-$(headers_twoarg)}}
out=$BUILD_DIR/shim/$(basename "$kdir")
rm -rf "$out"
mkdir -p "$out"
cp -a "$CDEV_TOP/compat" "$CDEV_TOP/shim" "$out/"
make -C "$kdir" M="$out/shim" W=1 -j"$(nproc)" modules >&2 || die "cdev_shim build against $kdir failed"
printf '%s\n' "$out/shim/cdev_shim.ko"
