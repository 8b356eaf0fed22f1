#!/bin/bash
# Print the Markdown table of the described kernels (pasted into README.md here; t-kernels
# checks that it is current).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../../../scripts/lib.sh disable=SC1091
. "$(dirname "$0")/../../../scripts/lib.sh"
# shellcheck source=../lib/kernels.sh
. "$CDEV_TOP/tests/matrix/lib/kernels.sh"
kernel_table
