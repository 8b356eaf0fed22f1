#!/bin/bash
# t-workflows.sh - the GitHub Actions workflows (.github/workflows/*.yml) against GitHub's
# workflow schema, with action-validator (npm @action-validator/cli, installed here into
# $CDEV_COMPAT_CACHE/npm when missing); proof that the validator rejects a schema error (a
# broken copy of each workflow must fail); the reusable workflow's interface (workflow_call
# with the inputs module, test, kernels) and the calling lines of docs/vendors.md (a
# `uses: .../vendor-matrix.yml@...` job whose `with:` keys are all inputs of it); the project
# workflow runs make check.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

AV_VERSION=0.6.0
prefix=$(npm_prefix action-validator-$AV_VERSION "@action-validator/cli@$AV_VERSION" "@action-validator/core@$AV_VERSION")
av=$prefix/node_modules/.bin/action-validator
# not CMD... - CMD fails.
not() { ! "$@" >/dev/null 2>&1; }

work=$TEST_WORK/workflows
rm -rf "$work"
mkdir -p "$work"

wfs=("$CDEV_TOP"/.github/workflows/*.yml)
check "two workflows (${#wfs[@]})" test "${#wfs[@]}" -ge 2
for wf in "${wfs[@]}"; do
	name=${wf#"$CDEV_TOP"/}
	if out=$("$av" "$wf" 2>&1); then
		ok "$name: valid against the workflow schema"
	else
		printf '%s\n' "$out" | grep -E '"(detail|title|path)"' | head -n 6 | sed 's/^ */# /'
		not_ok "$name: valid against the workflow schema"
	fi
	# The same file with one schema error (a step key that does not exist) must be rejected.
	awk '!done && /^      - name: / { sub(/- name: /, "- nmae: "); done = 1 } { print }' "$wf" >"$work/broken.yml"
	check "$name: a copy with a schema error (nmae:) is rejected" not "$av" "$work/broken.yml"
	sed 's/^on:/onn:/' "$wf" >"$work/broken.yml"
	check "$name: a copy without 'on:' is rejected" not "$av" "$work/broken.yml"
done

vm=$CDEV_TOP/.github/workflows/vendor-matrix.yml
# The inputs of the reusable workflow: the keys under on.workflow_call.inputs.
inputs=$(awk '/^  workflow_call:/ { on = 1; next } on && /^    inputs:/ { in_ = 1; next }
	in_ && /^      [a-z][a-z-]*:$/ { sub(/:$/, ""); print $1; next } in_ && /^[^ ]/ { exit } in_ && /^  [a-z]/ { exit }' "$vm")
for i in module test kernels; do
	check "vendor-matrix.yml: workflow_call input '$i'" grep -qxF "$i" <<<"$inputs"
done
# docs/vendors.md: the calling job (a yaml block with uses: .../vendor-matrix.yml@ref).
awk '/^```yaml/ { f = 1; n++; next } /^```/ { f = 0 } f { print > ("'"$work"'/doc-" n ".yml") }' "$CDEV_TOP/docs/vendors.md"
call=$(grep -l 'uses: .*/\.github/workflows/vendor-matrix\.yml@' "$work"/doc-*.yml 2>/dev/null | head -n1 || true)
check "docs/vendors.md shows the calling lines (uses: .../vendor-matrix.yml@...)" test -n "$call"
if [ -n "$call" ]; then
	check "docs/vendors.md: the calling workflow is valid" "$av" "$call"
	while read -r key; do
		check "docs/vendors.md: 'with: $key' is an input of vendor-matrix.yml" grep -qxF "$key" <<<"$inputs"
	done < <(awk '/^ *with:/ { w = 1; ind = match($0, /[^ ]/); next }
		w && match($0, /[^ ]/) <= ind { w = 0 } w && /^ *[a-z][a-z-]*:/ { sub(/^ */, ""); sub(/:.*/, ""); print }' "$call")
	for i in module cdev-compat-repository; do
		check "docs/vendors.md passes the required input '$i'" grep -qE "^ +$i:" "$call"
	done
fi
check "matrix.yml runs make check" grep -qE 'make check' "$CDEV_TOP/.github/workflows/matrix.yml"
check "matrix.yml runs the README's setup command before make matrix" \
	grep -qE 'scripts/setup-host\.sh && make matrix' "$CDEV_TOP/.github/workflows/matrix.yml"
