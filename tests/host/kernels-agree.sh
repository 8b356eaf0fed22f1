#!/bin/bash
# kernels-agree.sh TOP - every disagreement between the kernel descriptions of the project at TOP
# (tests/matrix/kernels/) and the files that must follow them, one a line; nothing when they
# agree. Used by t-kernels.sh on the project and on broken copies of it.
set -euo pipefail
top=$(cd "$1" && pwd)
CDEV_TOP=$top
# shellcheck source=../../scripts/lib.sh
. "$top/scripts/lib.sh"
# a field kernel_field cannot read is reported, then the check stops
die() {
	printf '%s\n' "$*"
	exit 0
}
# shellcheck source=../matrix/lib/kernels.sh
. "$top/tests/matrix/lib/kernels.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$MATRIX_KERNELS_ALL" ] || echo "no kernel descriptions"
for k in $(kernel_names); do
	for field in release arity class_create from suites security pin base flavour profile \
		lists timeout_factor script_timeout soak_init soak_tests; do
		grep -q "^$field=" "$top"/tests/matrix/kernels/[0-9][0-9]-"$k".conf || echo "$k: no $field="
	done
	case "$(kernel_field "$k" arity)" in 1 | 2) ;; *) echo "$k: arity is 1 or 2" ;; esac
	case "$(kernel_field "$k" class_create)" in owner,name | name) ;; *) echo "$k: class_create is owner,name or name" ;; esac
	[ -f "$top/mkosi.profiles/$(kernel_field "$k" profile).conf" ] || echo "$k: no mkosi profile $(kernel_field "$k" profile)"
	[[ $(kernel_field "$k" timeout_factor) =~ ^[1-9][0-9]*$ ]] || echo "$k: timeout_factor is a whole number >= 1"
	v=$(kernel_field "$k" script_timeout)
	[ -z "$v" ] || [[ $v =~ ^[1-9][0-9]*$ ]] || echo "$k: script_timeout is empty or a number of seconds"
	case "$(kernel_field "$k" soak_init)" in fast | systemd) ;; *) echo "$k: soak_init is fast or systemd" ;; esac
	for v in $(kernel_field "$k" lists); do
		case "$v" in suite | vendor | changes) ;; *) echo "$k: unknown list '$v'" ;; esac
	done
	for t in $(kernel_field "$k" soak_tests); do
		[ -f "$top/tests/guest/tests.d/$t.sh" ] || echo "$k: no guest test $t"
	done
	case "$(kernel_field "$k" from)" in
	apt)
		[ -z "$(kernel_field "$k" base)" ] || echo "$k: an apt kernel has no base"
		case "$(kernel_field "$k" flavour)" in amd64 | cloud-amd64) ;; *) echo "$k: an apt kernel's flavour is Debian's amd64 or cloud-amd64" ;; esac
		;;
	build)
		[ "$(kernel_field "$k" arity)" = 1 ] || echo "$k: a kernel built here is a one-arg kernel"
		[ -f "$top/kernel/bases/$(kernel_field "$k" base)/base.conf" ] || echo "$k: no kernel/bases/$(kernel_field "$k" base)"
		[ -f "$top/kernel/config/$(kernel_field "$k" flavour).config" ] || echo "$k: no flavour $(kernel_field "$k" flavour)"
		;;
	*) echo "$k: from is apt or build" ;;
	esac
	# The API-change corpus runs on the suite kernels without late kobject releases (a debug
	# kernel built here whose base does not turn CONFIG_DEBUG_KOBJECT_RELEASE off):
	# tests/changes/README.md says why.
	late=no
	if [ "$(kernel_field "$k" from)" = build ] &&
		grep -qx 'CONFIG_DEBUG_KOBJECT_RELEASE=y' "$top/kernel/config/$(kernel_field "$k" flavour).config" 2>/dev/null &&
		! grep -qx '# CONFIG_DEBUG_KOBJECT_RELEASE is not set' \
			"$top/kernel/bases/$(kernel_field "$k" base)/$(kernel_field "$k" flavour).config" 2>/dev/null; then
		late=yes
	fi
	want=no
	[[ " $(kernel_field "$k" lists) " != *" suite "* ]] || [ "$late" = yes ] || want=yes
	[[ " $(kernel_field "$k" lists) " == *" changes "* ]] && in=yes || in=no
	[ "$in" = "$want" ] || echo "$k: in the changes list: $in; want $want (suite kernel: $([[ " $(kernel_field "$k" lists) " == *" suite "* ]] && echo yes || echo no), late kobject releases: $late)"
done
# The soak keeps the image builders' path (systemd + the DKMS-installed module) on some kernel.
v=''
for k in $(kernel_names suite); do
	[ "$(kernel_field "$k" soak_init)" != systemd ] || v+="$k "
done
[ -n "$v" ] || echo "no suite kernel boots its soak through systemd (soak_init=systemd): the image builders' path is left untested"
v=$(awk '/^ +kernel: \[/ { sub(/^ +kernel: \[/, ""); sub(/\].*/, ""); gsub(/ /, ""); print }' \
	"$top/.github/workflows/matrix.yml")
[ "$v" = "$MATRIX_KERNELS_SUITE" ] || echo "matrix.yml's kernels [$v] are not the suite kernels [$MATRIX_KERNELS_SUITE]"
v=$(awk '/^      kernels:$/ { k = 1 } k && /^        default:/ { print $2; exit }' \
	"$top/.github/workflows/vendor-matrix.yml")
[ "$v" = "$MATRIX_KERNELS_VENDOR" ] || echo "vendor-matrix.yml's default kernels '$v' are not the vendor kernels '$MATRIX_KERNELS_VENDOR'"
v=$(awk '/^ +kernels: / { print $2; exit }' "$top/docs/vendors.md")
[ "$v" = "$MATRIX_KERNELS_VENDOR" ] || echo "docs/vendors.md calls with kernels '$v', not the vendor kernels '$MATRIX_KERNELS_VENDOR'"
kernel_table >"$work/table.md"
awk '/^## The kernels/ { t = 1; next } t && /^\|/ { print }' "$top/tests/matrix/kernels/README.md" >"$work/readme-table.md"
cmp -s "$work/table.md" "$work/readme-table.md" ||
	echo "the table of tests/matrix/kernels/README.md is not tests/matrix/kernels/table.sh's output"
