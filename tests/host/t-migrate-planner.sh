#!/bin/bash
# t-migrate-planner.sh - the Python half of the migration tool (compat/cocci/cdev_migrate/) on
# its own, without spatch: text helpers, judgements on C expressions, edits, and the planner's
# decisions on facts recorded as the SmPL rules record them (migrate-planner/test_planner.py).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs /usr/bin/python3:python3
PYTHONPATH=$CDEV_TOP/compat/cocci PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 "$HOST_TESTS/migrate-planner/test_planner.py"
