#!/bin/bash
# shellcheck disable=SC2016 # check commands in single quotes are eval'd, and expand there
# t-probe-cache.sh - the feature probes' result cache (compat/probes/run-probes.sh), as DKMS
# and vendor builds share it (issue 13):
# - directories and files get explicit modes (0755/0644), whatever the umask;
# - an entry that someone else could have written (group/world-writable, or owned by another
#   user), or a cache directory writable by others, is ignored with a warning and the probes
#   run again, privately; a tampered result is never used;
# - concurrent builds for the same kernel on a cold cache all succeed, agree, and publish one
#   entry with one rename: no build removes an entry another one is using;
# - headers patched in place under the same release (a vendor rebuild, a backport) are probed
#   again (issue 32 item 8): the entry follows the headers the probes read.
# The cache does not depend on which probes there are, and this suite probes cold eleven
# times: it runs run-probes.sh as shipped, from a copy of compat/ that keeps two probe sets
# (the unregister_chrdev() arity, and one API change: strlcpy), 4 probes instead of 52
# (t-probes and t-probes-in-pass run the whole set).
set -euo pipefail
# T_PROBE_CACHE="modes trust concurrent inplace" (default: all) runs only those parts (what a
# mutant's run needs).
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# part NAME - whether this run includes part NAME.
part() {
	in_parts T_PROBE_CACHE "$1" "modes trust concurrent inplace"
}

work=$TEST_WORK/probe-cache
rm -rf "$work"
mkdir -p "$work/tmp"
mkdir -p "$work/compat/probes" "$work/compat/changes/strlcpy"
cp "$CDEV_TOP"/compat/probes/{run-probes.sh,unregister_chrdev_1arg.c,unregister_chrdev_2arg.c} "$work/compat/probes/"
cp "$CDEV_TOP"/compat/changes/strlcpy/{compat.h,probe-*.c} "$work/compat/changes/strlcpy/"
probes=$work/compat/probes/run-probes.sh
kdir=$(headers_twoarg)
export CDEV_COMPAT_CACHE=$work/cache TMPDIR=$work/tmp
want='#define CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS 2'

if part modes || part trust; then
	entry=$( (umask 077 && "$probes" "$kdir") 2>"$work/first.err")
	modes=$(stat -c '%a' "$CDEV_COMPAT_CACHE" "$CDEV_COMPAT_CACHE/probes" "$entry" "$entry/cdev_compat_probes.h" | tr '\n' ' ')
	check "under umask 077 the cache dirs, the entry and its header are 755 755 755 644 ($modes)" \
		test "$modes" = "755 755 755 644 "
	again=$("$probes" "$kdir" 2>"$work/again.err")
	check "a second run uses the entry" test "$again" = "$entry" -a ! -s "$work/again.err"

	# tampered ENTRY HOW - HOW makes ENTRY untrustworthy; the next run must not use it.
	tampered() {
		local what=$1 out err
		shift
		echo '#error "tampered cache entry"' >"$entry/cdev_compat_probes.h"
		"$@"
		out=$("$probes" "$kdir" 2>"$work/tampered.err") || true
		err=$(cat "$work/tampered.err")
		check "$what: ignored with a warning, probed again (got '$out'; $err)" \
			eval 'grep -q "ignoring the probe cache entry $entry" <<<"$err" && [ "$out" != "$entry" ] && grep -qx "$want" "$out/cdev_compat_probes.h"'
		chmod 0755 "$entry"
		chown -R 0:0 "$entry"
		chmod 0644 "$entry/cdev_compat_probes.h"
	}
fi
if part trust; then
	tampered "a world-writable entry" chmod 0777 "$entry"
	tampered "a group-writable header" chmod 0664 "$entry/cdev_compat_probes.h"
	tampered "an entry owned by another user" chown -R 65534:65534 "$entry"

	chmod 0777 "$CDEV_COMPAT_CACHE/probes"
	out=$("$probes" "$kdir" 2>"$work/ww.err") || true
	err=$(cat "$work/ww.err")
	check "a world-writable cache dir: not used, probed privately (got '$out'; $err)" \
		eval 'grep -q "not using the probe cache" <<<"$err" && [ "${out#"$CDEV_COMPAT_CACHE"}" = "$out" ] && grep -qx "$want" "$out/cdev_compat_probes.h"'
	chmod 0755 "$CDEV_COMPAT_CACHE/probes"
fi

# Concurrent cold builds (DKMS builds kernels in parallel; make -j builds two vendor modules).
if part concurrent; then
	export CDEV_COMPAT_CACHE=$work/cache-par
	pids=()
	for i in 1 2 3 4; do
		(
			rc=0
			p=$("$probes" "$kdir" 2>"$work/par$i.err") || rc=$?
			printf '%s %s %s\n' "$rc" "$p" "$(stat -c %i "$p" 2>/dev/null || echo gone)" >"$work/par$i.out"
			# a consumer still reading the result a moment later
			sleep 2
			[ -f "$p/cdev_compat_probes.h" ] || echo "vanished" >>"$work/par$i.out"
		) &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p"; done
	final=$(find "$CDEV_COMPAT_CACHE/probes" -mindepth 1 -maxdepth 1 ! -name '.*' ! -name '*.deps' | tr '\n' ' ')
	final=${final% }
	ino=$(stat -c %i "$final" 2>/dev/null || echo none)
	bad=$(cat "$work"/par*.out | awk -v f="$final" -v i="$ino" '$1 != 0 || $2 != f || $3 != i || /vanished/' | tr '\n' ';')
	check "4 concurrent cold runs: all succeed and use the one published entry, never replaced (entry $final, inode $ino${bad:+; bad: $bad})" \
		eval '[ -z "$bad" ] && [ "$ino" != none ] && grep -qx "$want" "$final/cdev_compat_probes.h"'
	left=$(find "$CDEV_COMPAT_CACHE/probes" -mindepth 1 -maxdepth 1 -name '.work.*' | wc -l)
	check "no work dir is left behind ($left)" test "$left" -eq 0
fi

# Headers patched in place, same release: the one-arg fs.h hunks applied to a copy of the
# two-arg headers after a first probe run on it.
part inplace || exit 0
export CDEV_COMPAT_CACHE=$work/cache-inplace
tree=$(clone_headers "$kdir" "$work/inplace")
before=$("$probes" "$tree" 2>"$work/inplace1.err")
common=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$tree/Makefile")
filterdiff -i '*include/linux/fs.h' "$CDEV_TOP"/kernel/bases/6.1/patches/[0-9]*.patch |
	patch -s -d "$common" -p1 -F0 --no-backup-if-mismatch
after=$("$probes" "$tree" 2>"$work/inplace2.err")
check "headers patched in place under the same release: a new entry with the new verdict ($before, then $after)" \
	eval '[ "$after" != "$before" ] && grep -qx "$want" "$before/cdev_compat_probes.h" && grep -qx "#define CDEV_COMPAT_UNREGISTER_CHRDEV_ARGS 1" "$after/cdev_compat_probes.h"'
again=$("$probes" "$tree" 2>"$work/inplace3.err")
check "... which the next run uses ($again)" test "$again" = "$after"
