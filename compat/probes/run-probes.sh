#!/bin/bash
# run-probes.sh KDIR [MAKE-ARG...] - run the cdev-compat feature probes against the kernel build
# directory KDIR (the target kernel's, never the running one) and print the directory that
# holds the generated cdev_compat_probes.h.
#
# Every *.c beside this script is one positive probe for one API variant; its header comment
# names its set ("Set:") and the macro it defines when it compiles ("Defines:"). All probes are
# compiled in one Kbuild pass (-k, parallel, -Werror, syntax and types only). Exactly one variant of each set must
# compile, or this script fails naming the probe and the path of its kept log.
#
# Results are cached per kernel release + build dir (+ the probes, this script and the extra
# make arguments) and the headers the probes read, under $CDEV_COMPAT_CACHE/probes: a cold run
# records every header the compiler read (its dependency files) in RELEASE-KEY.deps, and the
# entry's name holds the sizes and times of those files then, so headers patched in place
# under the same release (a vendor rebuild, a backport) are probed again. The default is /var/cache/cdev-compat (the
# installed package's, removed on purge) for the installed copy, /var/cache/cdev-compat-dev
# for a source checkout (so a purge never touches a developer's cache), or
# ~/.cache/cdev-compat when that is not writable. MAKE-ARGs (ARCH=arm64 CROSS_COMPILE=...,
# CC=clang LLVM=1, ...) are passed to the kernel's make so the probes see the same toolchain
# as the module; the job count is the calling make's (or CDEV_COMPAT_JOBS; 0: all cores).
#
# The cache is shared by concurrent builds (DKMS builds kernels in parallel; one make -j may
# build two vendor modules): an entry is made in a private directory and published with one
# rename, an entry another build published is never removed, and an entry is used only when
# it, and the directories above it, belong to the building user (or root) and are not
# writable by anyone else; otherwise it is ignored and the probes run in a private directory.
set -euo pipefail

# The cached (warm) path runs three programs (stat twice, sha256sum once); the rest is bash.
case "${BASH_SOURCE[0]}" in
*/*) probes_dir=${BASH_SOURCE[0]%/*} ;;
*) probes_dir=. ;;
esac
probes_dir=$(cd "$probes_dir" && pwd)
me=cdev-compat-probes
uid=$EUID

die() {
	printf '%s: error: %s\n' "$me" "$*" >&2
	exit 1
}

[ $# -ge 1 ] || die "usage: run-probes.sh KDIR [MAKE-ARG...]"
kdir_arg=$1
shift
[ -d "$kdir_arg" ] || die "kernel build directory '$kdir_arg' does not exist (are the headers of the target kernel installed? e.g. apt install linux-headers-<release>)"
kdir=$(cd "$kdir_arg" && pwd -P)
[ -f "$kdir/Makefile" ] || die "'$kdir' has no Makefile: not a kernel build directory"
uts=$kdir/include/generated/utsrelease.h
[ -f "$uts" ] || die "'$kdir' has no include/generated/utsrelease.h: not a configured kernel build directory"
release=
while IFS= read -r line; do
	case "$line" in
	'#define UTS_RELEASE "'*'"')
		release=${line#'#define UTS_RELEASE "'}
		release=${release%'"'}
		;;
	esac
done <"$uts"
[ -n "$release" ] || die "cannot read the kernel release from $uts"

# safe OWNER MODE - owned by this user or root, not writable by group or others.
safe() {
	{ [ "$1" -eq "$uid" ] || [ "$1" -eq 0 ]; } && [ $((8#$2 & 8#022)) -eq 0 ]
}

# make_cache_dir DIR - create DIR (and missing parents) with mode 0755, whatever the umask.
make_cache_dir() {
	[ -d "$1" ] || (umask 022 && mkdir -p "$1") 2>/dev/null
}

if [ -n "${CDEV_COMPAT_CACHE:-}" ]; then
	cache=$CDEV_COMPAT_CACHE
else
	if [ -f "$probes_dir/../../debian/control" ]; then
		cache=/var/cache/cdev-compat-dev
	else
		cache=/var/cache/cdev-compat
	fi
	if ! make_cache_dir "$cache/probes" || [ ! -w "$cache/probes" ]; then
		cache=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/cdev-compat
	fi
fi
make_cache_dir "$cache/probes" || die "cannot create the probe cache $cache/probes"

shopt -s nullglob
# The probes: every *.c here, and every probe-*.c of an API change (compat/changes/NAME/),
# compiled as NAME-VARIANT.
changes_dir=
if [ -d "$probes_dir/../changes" ]; then
	changes_dir=$(cd "$probes_dir/../changes" && pwd)
fi
sources=("$probes_dir"/*.c)
[ -z "$changes_dir" ] || sources+=("$changes_dir"/*/probe-*.c)
[ ${#sources[@]} -gt 0 ] || die "no probes in $probes_dir"

# The key: what the results depend on, read from the files' names, sizes and times, not from
# their contents. The .config and the build dir's Makefile change when the headers are
# replaced in place; a probe or this script changes in size or time when edited.
key=$({
	printf '%s\n%s\n' "$release" "$kdir"
	printf '%s\n' "$@"
	stat -c '%n %s %Y' "$kdir/.config" "$kdir/Makefile" "$uts" "${sources[@]}" \
		${changes_dir:+"$changes_dir"/*/compat.h} "${BASH_SOURCE[0]}" 2>/dev/null || true
} | sha256sum)
key=${key:0:16}

# deps_sum DEPS-FILE - a digest of the names, sizes, times and inodes of the files DEPS-FILE
# lists (one stat for all), or "none" when one of them is gone or the list is unreadable.
deps_sum() {
	local deps st
	if ! [ -s "$1" ] || ! mapfile -t deps <"$1" 2>/dev/null; then
		echo none
		return
	fi
	st=$(stat -c '%n %s %Y %i' -- "${deps[@]}" 2>/dev/null) || { echo none; return; }
	st=$(sha256sum <<<"$st")
	echo "${st:0:16}"
}
deps_file=$cache/probes/$release-$key.deps
entry=$cache/probes/$release-$key-$(deps_sum "$deps_file")

# stat_safe PATH... - every PATH exists, no symbolic link, a directory where PATH ends in "/"
# and a regular file otherwise, owned by this user or root, not writable by group or others.
# One stat(1) for all of them.
stat_safe() {
	local owner mode kind want n=0 paths=("$@")
	while read -r owner mode kind; do
		want="regular file"
		[ "${paths[n]: -1}" != / ] || want=directory
		[ "$kind" = "$want" ] && safe "$owner" "$mode" || return 1
		n=$((n + 1))
	done < <(stat -c '%u %a %F' "$@" 2>/dev/null)
	[ "$n" -eq $# ]
}

# usable_entry DIR - a complete result that nobody else could have written into.
usable_entry() {
	stat_safe "$1/" "$1/cdev_compat_probes.h" "$1/cdev_compat_changes.h" "$1/probes.txt"
}

# A cached result in a cache nobody else can write into: one look.
if [ -e "$entry" ] && stat_safe "$cache/" "$cache/probes/" "$deps_file" "$entry/" \
	"$entry/cdev_compat_probes.h" "$entry/cdev_compat_changes.h" "$entry/probes.txt"; then
	printf '%s\n' "$entry"
	exit 0
fi

trusted=1
if ! stat_safe "$cache/" "$cache/probes/"; then
	printf '%s: warning: not using the probe cache %s: %s or %s is not owned by uid %s or root, or is writable by others\n' \
		"$me" "$cache/probes" "$cache" "$cache/probes" "$uid" >&2
	trusted=0
fi

if [ "$trusted" -eq 1 ] && [ -e "$entry" ]; then
	if usable_entry "$entry"; then
		printf '%s\n' "$entry"
		exit 0
	fi
	printf '%s: warning: ignoring the probe cache entry %s (incomplete, or not owned by uid %s or root, or writable by others); probing again\n' \
		"$me" "$entry" "$uid" >&2
	trusted=0
fi

if [ "$trusted" -eq 1 ]; then
	work=$(mktemp -d "$cache/probes/.work.XXXXXX")
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/cdev-compat-probes.XXXXXX")
fi
trap 'rm -rf "$work"' EXIT
mkdir "$work/logs"
names=()
declare -A src_of=()
for src in "${sources[@]}"; do
	name=$(basename "$src" .c)
	case "$src" in
	"$changes_dir"/*/probe-*.c)
		name=${src%/probe-*.c}
		name=${name##*/}-${src##*/probe-}
		name=${name%.c}
		;;
	esac
	case "$name" in
	__*) die "probe $src: Kbuild refuses a goal whose name starts with '__'; rename the file" ;;
	esac
	[ -z "${src_of[$name]+x}" ] || die "probes $src and ${src_of[$name]} have the same name $name"
	names+=("$name")
	src_of[$name]=$src
	cp "$src" "$work/$name.c"
done

# Each probe's compiler diagnostics go to its own log. The override keeps the plain compile
# and drops objtool and friends, which a probe does not need.
# A probe only has to compile: the compiler checks it and stops (-fsyntax-only: no code, no
# assembler), and the rule does nothing else (no fixdep, objtool, export check, symbol
# versions or mcount); the empty .o says it compiled.
cat >"$work/Kbuild" <<'KBUILD'
ccflags-y += -Werror
override cmd_cc_o_c = $(CC) $(c_flags) -fsyntax-only $< \
	2>$(obj)/logs/$(basename $(notdir $@)).log && : >$@
override define rule_cc_o_c
	$(call cmd,cc_o_c)
endef
# What the probes were compiled with, for the record (and the cross-build test).
$(shell printf 'SRCARCH=%s\nCC=%s\n' '$(SRCARCH)' '$(CC)' >$(obj)/logs/toolchain.txt)
KBUILD

# The job count: CDEV_COMPAT_JOBS if set (0: all cores); under make, the caller's (-jN in the
# MAKEFLAGS it passes down, all cores for a bare -j, one job without -j); run alone, all cores.
makeflags_jobs() {
	local w
	for w in $MAKEFLAGS; do
		case "$w" in
		--) break ;;
		-j) echo 0; return ;;
		-j[0-9]*) echo "${w#-j}"; return ;;
		esac
	done
	echo 1
}
if [ -n "${CDEV_COMPAT_JOBS:-}" ]; then
	jobs=$CDEV_COMPAT_JOBS
elif [ -n "${MAKEFLAGS+x}" ]; then
	jobs=$(makeflags_jobs)
else
	jobs=0
fi
case "$jobs" in
0) jobs=$(nproc 2>/dev/null || echo 2) ;;
*[!0-9]* | '') die "job count '$jobs' is not a number" ;;
esac
objs=()
for name in "${names[@]}"; do
	objs+=("$name.o")
done
printf 'JOBS=%s\nMAKE_ARGS=%s\n' "$jobs" "$*" >"$work/logs/jobs.txt"
# Kbuild before 5.12 builds a single object of an external module only if it is a target.
printf 'targets += %s\n' "${objs[@]}" >>"$work/Kbuild"
set +e
env -i PATH="$PATH" HOME="${HOME:-/}" LC_ALL=C \
	make -C "$kdir" M="$work" -k -j"$jobs" "$@" "${objs[@]}" >"$work/logs/kbuild.log" 2>&1
set -e

# Sort the probes into their sets.
declare -A set_variants=() set_passed=()
sets=()
summary=$work/probes.txt
: >"$summary"
for name in "${names[@]}"; do
	src=${src_of[$name]}
	set=$(sed -n 's/^ \* Set: *\([A-Za-z0-9_]*\) *$/\1/p' "$src")
	defines=$(sed -n 's/^ \* Defines: *\(.*\)$/\1/p' "$src")
	if [ -z "$set" ] || [ -z "$defines" ]; then
		die "probe $src lacks its 'Set:' or 'Defines:' line"
	fi
	[ -n "${set_variants[$set]+x}" ] || sets+=("$set")
	set_variants[$set]+="$name "
	if [ -f "$work/$name.o" ]; then
		set_passed[$set]+="$name "
		printf '%s %s pass\n' "$set" "$name" >>"$summary"
	else
		printf '%s %s fail\n' "$set" "$name" >>"$summary"
	fi
done

# What the compiler read: every file the probes' dependency files name, but the probes
# themselves (in the work dir).
cat "$work"/.*.d 2>/dev/null | sed 's/[[:space:]\\]\{1,\}/\n/g' | sed -n 's/:$//; /^\//p' | grep -v "^$work/" |
	sort -u >"$work/deps.txt" || true

# The work dir becomes the result dir (kept whatever happens: it holds the logs).
trap - EXIT
rm -f "$work"/*.o "$work"/.*.cmd "$work"/*.c "$work/Kbuild" "$work"/.*.d "$work"/*.mod* \
	"$work"/modules.order "$work"/Module.symvers
entry=$work

log_of() {
	if [ -s "$entry/logs/$1.log" ]; then
		printf '%s' "$entry/logs/$1.log"
	else
		printf '%s' "$entry/logs/kbuild.log"
	fi
}

failed=0
{
	printf '/* Generated by cdev-compat run-probes.sh; do not edit. */\n'
	printf '/* Kernel %s, build dir %s */\n' "$release" "$kdir"
	printf '#ifndef CDEV_COMPAT_PROBES_H\n#define CDEV_COMPAT_PROBES_H\n\n'
	printf '#define CDEV_COMPAT_PROBED_RELEASE "%s"\n' "$release"
} >"$entry/header.tmp"
for set in "${sets[@]}"; do
	read -r -a passed <<<"${set_passed[$set]:-}"
	read -r -a variants <<<"${set_variants[$set]}"
	if [ ${#passed[@]} -eq 1 ]; then
		defines=$(sed -n 's/^ \* Defines: *\(.*\)$/\1/p' "${src_of[${passed[0]}]}")
		printf '\n/* %s: %s.c compiled */\n#define %s\n' "$set" "${passed[0]}" "$defines" >>"$entry/header.tmp"
		continue
	fi
	failed=1
	if [ ${#passed[@]} -eq 0 ]; then
		printf '%s: error: kernel %s (%s): no variant of "%s" compiles:\n' "$me" "$release" "$kdir" "$set" >&2
		for v in "${variants[@]}"; do
			printf '  probe %s failed; log: %s\n' "${src_of[$v]}" "$(log_of "$v")" >&2
		done
	else
		printf '%s: error: kernel %s (%s): more than one variant of "%s" compiles (%s); the probes are ambiguous\n' \
			"$me" "$release" "$kdir" "$set" "${passed[*]}" >&2
	fi
done
if [ "$failed" -ne 0 ]; then
	rm -f "$entry/header.tmp"
	chmod -R go+rX,go-w "$entry"
	printf '%s: all logs kept in %s (Kbuild output: %s)\n' "$me" "$entry/logs" "$entry/logs/kbuild.log" >&2
	exit 1
fi
printf '\n#endif /* CDEV_COMPAT_PROBES_H */\n' >>"$entry/header.tmp"
mv "$entry/header.tmp" "$entry/cdev_compat_probes.h"
# The header parts of the API changes, for <cdev_compat.h> (each NAME/compat.h is found on the
# fragment's -I of compat/changes).
{
	printf '/* Generated by cdev-compat run-probes.sh; do not edit. */\n'
	for c in ${changes_dir:+"$changes_dir"/*/compat.h}; do
		c=${c%/compat.h}
		printf '#include <%s/compat.h>\n' "${c##*/}"
	done
} >"$entry/cdev_compat_changes.h"
# What the Kbuild fragment checks a CDEV_COMPAT_PROBED from the environment against.
printf '%s %s\n' "$release" "$kdir" >"$entry/target.txt"
chmod -R go+rX,go-w "$entry"
final=$cache/probes/$release-$key-$(deps_sum "$entry/deps.txt")
if [ "$trusted" -eq 1 ]; then
	# The list of what this run read, for the next lookup (one rename: readers see the
	# old list or the new one).
	if ! { cp "$entry/deps.txt" "$deps_file.$$" && chmod 0644 "$deps_file.$$" &&
		mv -f "$deps_file.$$" "$deps_file"; }; then
		rm -f "$deps_file.$$"
	fi
	# Publish with one rename; if a concurrent build published first, use its entry.
	if mv -T "$entry" "$final" 2>/dev/null; then
		entry=$final
	elif usable_entry "$final"; then
		rm -rf "$entry"
		entry=$final
	fi
fi
printf '%s\n' "$entry"
