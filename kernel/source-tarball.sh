#!/bin/bash
# Print the path of a base's pristine linux-source tarball (kernel/bases/BASE/base.conf),
# installing or downloading it once: what the other arity's legacy drivers are staged from.
#
#   kernel/source-tarball.sh [--base BASE]
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

base_args "$@"
[ ${#BASE_ARGS_LEFT[@]} -eq 0 ] || die "usage: kernel/source-tarball.sh [--base BASE]"
src_tarball
