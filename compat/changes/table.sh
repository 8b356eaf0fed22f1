#!/bin/bash
# table.sh - the Markdown table of the API changes cdev-compat bridges (compat/changes/*/),
# from their change.conf: what docs/vendors.md shows ("API changes covered"; t-changes checks
# that it is current).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
field() {
	sed -n "s/^$2=//p" "$1"
}
printf '| change | kernel | before | after | what a vendor writes |\n'
printf '| --- | --- | --- | --- | --- |\n'
for conf in "$here"/*/change.conf; do
	name=${conf%/change.conf}
	name=${name##*/}
	# shellcheck disable=SC2016 # the backquotes are Markdown's
	printf '| `%s`: %s | %s | `%s` | %s | %s |\n' "$name" "$(field "$conf" title)" \
		"$(field "$conf" kernel)" "$(field "$conf" old | sed 's/|/\\|/g')" \
		"$(field "$conf" new | sed 's/|/\\|/g')" "$(field "$conf" vendor | sed 's/|/\\|/g')"
done
