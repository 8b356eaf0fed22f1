#!/bin/bash
# shellcheck disable=SC2016 # check commands in single quotes are eval'd, and expand there
# t-probes-in-pass.sh - the probes a module's own Kbuild pass runs (the fragment: the pass's
# compile command, all probes in one translation unit) decide what the standalone
# run-probes.sh (its own Kbuild pass, one object per probe) decides, on every tree the matrix
# and the backports meet: Debian's 5.10, 6.1, the one-arg 6.1, the 7.3 base, and the two
# backported class_create() shapes. A module is built W=1 through the fragment against each;
# the #define lines of the two headers must be the same, and the one translation unit must
# settle every set. A header that breaks when included makes the shared unit name no probe:
# the probes are then compiled one by one, and the failing set is named with its log.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs make:make gcc:gcc
work=$TEST_WORK/probes-in-pass
rm -rf "$work"
mkdir -p "$work"
probes=$CDEV_TOP/compat/probes/run-probes.sh
frag=$CDEV_TOP/compat/cdev-compat.mk

# T_IN_PASS_TREES="6.1 7.3" (default: all) runs only those trees (the mutants use it).
read -r -a names <<<"${T_IN_PASS_TREES:-5.10 6.1 onearg-6.1 7.3 backport-macro backport-function}"
declare -A tree=() args=()
for t in "${names[@]}"; do
	case "$t" in
	5.10) tree[$t]=$(headers_bullseye) args[$t]="${HEADERS_BULLSEYE_ARGS[*]}" ;;
	6.1) tree[$t]=$(headers_twoarg) ;;
	onearg-6.1) tree[$t]=$(headers_onearg) ;;
	7.3) tree[$t]=$("$CDEV_TOP/kernel/headers-tree.sh" --base 7.3) args[$t]=KBUILD_MODPOST_WARN=1 ;;
	backport-macro) tree[$t]=$("$HOST_TESTS/make-backport-headers.sh" macro) ;;
	backport-function) tree[$t]=$("$HOST_TESTS/make-backport-headers.sh" function) ;;
	*) die "T_IN_PASS_TREES: no tree '$t'" ;;
	esac
done

# module DIR - a one-file module with the include line in DIR.
module() {
	mkdir -p "$1"
	cp "$HOST_TESTS/drivers/vlegacy/vlegacy.c" "$1/"
	printf 'obj-m := vlegacy.o\nCDEV_COMPAT_FORCE_INCLUDE := y\ninclude %s\n' "$frag" >"$1/Kbuild"
}

# in_pass_entry CACHE - the probe result the fragment made in CACHE (its logs keep the
# command it was given).
in_pass_entry() {
	local f
	for f in "$1"/probes/*/logs/command.txt; do
		[ -f "$f" ] && dirname "$(dirname "$f")"
	done
}

defines() {
	grep '^#define CDEV_COMPAT_[A-Z0-9_]* ' "$1" | grep -v '^#define CDEV_COMPAT_PROBED_RELEASE '
}

for t in "${names[@]}"; do
	dir=$work/$t
	module "$dir/module"
	status=0
	# shellcheck disable=SC2086 # the tree's make arguments, one word each
	CDEV_COMPAT_CACHE=$dir/cache kbuild "${tree[$t]}" "$dir/module" "$dir/build.log" ${args[$t]:-} ||
		status=$?
	entry=$(in_pass_entry "$dir/cache")
	check "$t: a W=1 module build through the fragment probes in its own pass (status $status, entry '${entry:-none}'; log $dir/build.log)" \
		eval '[ "$status" -eq 0 ] && [ -f "$dir/module/vlegacy.ko" ] && [ -n "$entry" ] && [ -f "$entry/cdev_compat_probes.h" ]'
	{ [ -n "$entry" ] && [ -f "$entry/cdev_compat_probes.h" ]; } || continue
	# shellcheck disable=SC2086
	if standalone=$(CDEV_COMPAT_CACHE=$dir/standalone-cache "$probes" "${tree[$t]}" ${args[$t]:-} 2>"$dir/standalone.err"); then
		d=$(diff <(defines "$standalone/cdev_compat_probes.h") <(defines "$entry/cdev_compat_probes.h") | grep '^[<>]' | head -n 4 | tr '\n' ' ' || true)
		n=$(defines "$entry/cdev_compat_probes.h" | wc -l)
		check "$t: the in-pass header defines what the standalone one does ($n macros${d:+; differ: $d})" \
			eval '[ -z "$d" ] && [ "$n" -gt 10 ]'
	else
		not_ok "$t: the standalone probes failed: $(head -c 300 "$dir/standalone.err")"
	fi
	alone=$(sed -n 's/^ALONE=//p' "$entry/logs/jobs.txt")
	check "$t: the one translation unit settled every set (compiled alone: ${alone:-none})" test -z "$alone"
done

# The warm path (run-probes.sh's record of its last result for this build): an unchanged
# build takes the entry it recorded; a build whose compile command differs (here a flag in
# CFLAGS_MODULE) probes again and gets an entry of its own.
if [ -n "${tree[6.1]:-}" ]; then
	dir=$work/6.1
	first=$(in_pass_entry "$dir/cache")
	status=0
	CDEV_COMPAT_CACHE=$dir/cache kbuild "${tree[6.1]}" "$dir/module" "$dir/again.log" || status=$?
	now=$(in_pass_entry "$dir/cache")
	records=$(find "$dir/cache/probes/in-pass" -type f 2>/dev/null | wc -l)
	check "6.1: the same build again takes the recorded entry (status $status, entries: $(grep -c . <<<"$now"), records: $records)" \
		test "$status" -eq 0 -a "$now" = "$first" -a "$records" -eq 1
	status=0
	CDEV_COMPAT_CACHE=$dir/cache kbuild "${tree[6.1]}" "$dir/module" "$dir/flag.log" CFLAGS_MODULE=-DCDEV_COMPAT_T_FLAG=1 ||
		status=$?
	flagged=$(grep -l -e '-DCDEV_COMPAT_T_FLAG=1' "$dir"/cache/probes/*/logs/command.txt 2>/dev/null | wc -l || true)
	check "6.1: a build with another compile command probes again with it (status $status, entries with the flag: $flagged)" \
		eval '[ "$status" -eq 0 ] && [ "$flagged" -eq 1 ] && [ "$(in_pass_entry "$dir/cache" | wc -l)" -eq 2 ]'
fi

# A header that breaks when included: the shared unit's error names no probe; every probe is
# then compiled alone, and the broken set is named with its log.
if [ -n "${tree[6.1]:-}" ]; then
	broken=$(clone_headers "${tree[6.1]}" "$work/broken")
	eventfd_h=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$broken/Makefile")/include/linux/eventfd.h
	printf '#error "broken on purpose"\n' >>"$eventfd_h"
	module "$work/broken-module"
	status=0
	CDEV_COMPAT_CACHE=$work/broken-cache kbuild "$broken" "$work/broken-module" "$work/broken.log" ||
		status=$?
	alone=$(sed -n 's/^ALONE=//p' "$work"/broken-cache/probes/.work.*/logs/jobs.txt 2>/dev/null |
		wc -w || true)
	total=$(($(find "$CDEV_TOP/compat/probes" -name '*.c' | wc -l) + $(find "$CDEV_TOP/compat/changes" -name 'probe-*.c' | wc -l)))
	check "a header that breaks when included: the build stops naming the eventfd_signal set and a log, every probe compiled alone ($alone of $total; status $status; log $work/broken.log)" \
		eval '[ "$status" -ne 0 ] && grep -q "no variant of \"eventfd_signal\" compiles" "$work/broken.log" &&
			grep -q "eventfd_signal/probe-args1.c failed; log: /" "$work/broken.log" && [ "$alone" -eq "$total" ]'
fi
