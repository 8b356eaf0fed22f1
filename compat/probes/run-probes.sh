#!/bin/bash
# run-probes.sh KDIR [MAKE-ARG...]
# run-probes.sh --in-pass KDIR (CDEV_COMPAT_PROBE_CMD=COMMAND in the environment)
#
# Run the cdev-compat feature probes against the kernel build directory KDIR (the target
# kernel's, never the running one) and print the directory that holds the generated
# cdev_compat_probes.h.
#
# Every *.c beside this script, and every ../changes/NAME/probe-*.c (as NAME-VARIANT), is one
# positive probe for one API variant; its header comment names its set ("Set:") and the macro
# it defines when it compiles ("Defines:"). Standalone, all probes are compiled in one Kbuild
# pass of their own (-k, parallel, -Werror, syntax and types only). With --in-pass (the Kbuild
# fragment, from a module's own pass) they are compiled with that pass's COMMAND as one
# translation unit (see "In-pass mode" below). Exactly one variant of each set must compile,
# or this script fails naming the probe and the path of its kept log.
#
# Results are cached per kernel release + build dir (+ the probes, this script and the extra
# make arguments, or the in-pass command and directory) and the headers the probes read, under $CDEV_COMPAT_CACHE/probes: a cold run
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
# Absolute, symbolic links resolved, without a subshell (cd -P, then back): the warm path of
# a module build runs as few processes as it can.
here=$PWD
cd -P -- "$probes_dir"
probes_dir=$PWD
self=$probes_dir/${BASH_SOURCE[0]##*/}
changes_dir=
if [ -d ../changes ]; then
	cd -P ../changes
	changes_dir=$PWD
fi
cd -- "$here"
me=cdev-compat-probes
uid=$EUID

die() {
	printf '%s: error: %s\n' "$me" "$*" >&2
	exit 1
}

# --in-pass: called by the Kbuild fragment from the module's own Kbuild pass, with the compile
# command that pass computed (see "In-pass mode" below); no Kbuild run of its own.
in_pass=0
if [ "${1:-}" = --in-pass ]; then
	in_pass=1
	shift
	[ -n "${CDEV_COMPAT_PROBE_CMD:-}" ] || die "--in-pass needs CDEV_COMPAT_PROBE_CMD (the compile command)"
fi
[ $# -ge 1 ] || die "usage: run-probes.sh KDIR [MAKE-ARG...] | run-probes.sh --in-pass KDIR"
kdir_arg=$1
shift
[ "$in_pass" -eq 0 ] || [ $# -eq 0 ] || die "--in-pass takes no make arguments"
[ -d "$kdir_arg" ] || die "kernel build directory '$kdir_arg' does not exist (are the headers of the target kernel installed? e.g. apt install linux-headers-<release>)"
cd -P -- "$kdir_arg"
kdir=$PWD
cd -- "$here"
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
sources=("$probes_dir"/*.c)
[ -z "$changes_dir" ] || sources+=("$changes_dir"/*/probe-*.c)
[ ${#sources[@]} -gt 0 ] || die "no probes in $probes_dir"

# In-pass mode keeps a record of its last result for this kernel, build dir and directory:
# the command, the entry, and the stat(1) lines of what the result depends on (the kernel's
# .config, Makefile and utsrelease.h, the probes, this script, every header the probes read).
# One stat(1) call then finds it current, the record and the entry safe (see stat_safe): no
# digest, no other process. Otherwise the keyed lookup below runs and writes the record.
record=
stamp_fmt='%s %Y %i %u %f %n'
stamp_paths=("$kdir/.config" "$kdir/Makefile" "$uts" "${sources[@]}"
	${changes_dir:+"$changes_dir"/*/compat.h} "$self")
if [ "$in_pass" -eq 1 ]; then
	record=${kdir//\//%}@${PWD//\//%}
	record=$cache/probes/in-pass/$release/${record:0:200}
fi

# stamp_safe LINE... - each stat(1) line ($stamp_fmt) is of a directory (a name ending in "/")
# or a regular file (no symbolic link), owned by this user or root, not writable by group or
# others.
stamp_safe() {
	local line size mtime ino owner mode name type
	for line in "$@"; do
		# shellcheck disable=SC2034 # size, mtime, ino: the fields before
		read -r size mtime ino owner mode name <<<"$line"
		mode=$((16#$mode))
		type=$((mode & 8#170000))
		if [ "${name: -1}" = / ]; then
			[ "$type" -eq $((8#040000)) ] || return 1
		else
			[ "$type" -eq $((8#100000)) ] || return 1
		fi
		{ [ "$owner" -eq "$uid" ] || [ "$owner" -eq 0 ]; } && [ $((mode & 8#022)) -eq 0 ] || return 1
	done
}

if [ -n "$record" ] && [ -f "$record" ]; then
	# The record: three lines (command, clang, entry), then the stat(1) lines. Big strings
	# are compared whole and cut by length: bash's line splitting costs more than the stat.
	{ IFS= read -r rcmd && IFS= read -r rclang && IFS= read -r rentry; } <"$record" || rentry=
	if [ -n "$rentry" ] && [ "$rcmd" = "$CDEV_COMPAT_PROBE_CMD" ] &&
		[ "$rclang" = "${CDEV_COMPAT_PROBE_CLANG:-}" ] && [ -f "$rentry/deps.txt" ]; then
		rstamp=$(<"$record")
		rstamp=${rstamp:${#rcmd}+${#rclang}+${#rentry}+3}
		mapfile -t rdeps <"$rentry/deps.txt"
		rsafe=("$cache/" "$cache/probes/" "$cache/probes/in-pass/" "$cache/probes/in-pass/$release/"
			"$record" "$rentry/" "$rentry/deps.txt" "$rentry/cdev_compat_probes.h"
			"$rentry/cdev_compat_changes.h" "$rentry/probes.txt")
		if [ -n "$rstamp" ] &&
			now=$(stat -c "$stamp_fmt" -- "${rsafe[@]}" "${stamp_paths[@]}" "${rdeps[@]}" 2>/dev/null) &&
			[ ${#now} -gt ${#rstamp} ] && [ "${now: -${#rstamp}}" = "$rstamp" ]; then
			mapfile -t nowl <<<"${now:0:${#now}-${#rstamp}-1}"
			if [ ${#nowl[@]} -eq ${#rsafe[@]} ] && stamp_safe "${nowl[@]}"; then
				printf '%s\n' "$rentry"
				exit 0
			fi
		fi
	fi
fi

# write_record ENTRY - in-pass mode, a trusted cache: record ENTRY for the next build (one
# rename: readers see the old record or the new one).
write_record() {
	local st
	local -a deps=()
	[ -n "$record" ] && [ "$trusted" -eq 1 ] || return 0
	mapfile -t deps <"$1/deps.txt" || return 0
	st=$(stat -c "$stamp_fmt" -- "${stamp_paths[@]}" "${deps[@]}" 2>/dev/null) || return 0
	make_cache_dir "${record%/*}" || return 0
	if ! { printf '%s\n%s\n%s\n%s\n' "$CDEV_COMPAT_PROBE_CMD" "${CDEV_COMPAT_PROBE_CLANG:-}" "$1" "$st" \
		>"$record.$$" && mv -f "$record.$$" "$record"; }; then
		rm -f "$record.$$"
	fi
}

# The key: what the results depend on, read from the files' names, sizes and times, not from
# their contents. The .config and the build dir's Makefile change when the headers are
# replaced in place; a probe or this script changes in size or time when edited.
key=$({
	printf '%s\n%s\n' "$release" "$kdir"
	printf '%s\n' "$@"
	[ "$in_pass" -eq 0 ] ||
		printf 'in-pass\n%s\n%s\nclang=%s\n' "$PWD" "$CDEV_COMPAT_PROBE_CMD" "${CDEV_COMPAT_PROBE_CLANG:-}"
	stat -c '%n %s %Y' "$kdir/.config" "$kdir/Makefile" "$uts" "${sources[@]}" \
		${changes_dir:+"$changes_dir"/*/compat.h} "$self" 2>/dev/null || true
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
	trusted=1
	write_record "$entry"
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
		write_record "$entry"
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
	name=${src##*/}
	name=${name%.c}
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
done

# Each probe's set and the macro it defines (read with builtins: no process per probe).
declare -A set_of=() defines_of=()
set_re='^ \* Set: *([A-Za-z0-9_]*) *$'
defines_re='^ \* Defines: *(.*)$'
for name in "${names[@]}"; do
	while IFS= read -r line; do
		if [[ $line =~ $set_re ]]; then
			set_of[$name]=${BASH_REMATCH[1]}
		elif [[ $line =~ $defines_re ]]; then
			defines_of[$name]=${BASH_REMATCH[1]}
		fi
	done <"${src_of[$name]}"
	if [ -z "${set_of[$name]:-}" ] || [ -z "${defines_of[$name]:-}" ]; then
		die "probe ${src_of[$name]} lacks its 'Set:' or 'Defines:' line"
	fi
done

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
printf 'JOBS=%s\nMAKE_ARGS=%s\n' "$jobs" "$*" >"$work/logs/jobs.txt"

if [ "$in_pass" -eq 0 ]; then
	# Standalone: the probes in a Kbuild pass of their own, one object each. Each probe's
	# compiler diagnostics go to its own log. A probe only has to compile: the compiler
	# checks it and stops (-fsyntax-only: no code, no assembler), and the rule does nothing
	# else (no fixdep, objtool, export check, symbol versions or mcount); the empty .o says
	# it compiled.
	objs=()
	for name in "${names[@]}"; do
		cp "${src_of[$name]}" "$work/$name.c"
		objs+=("$name.o")
	done
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
	# Kbuild before 5.12 builds a single object of an external module only if it is a target.
	printf 'targets += %s\n' "${objs[@]}" >>"$work/Kbuild"
	set +e
	env -i PATH="$PATH" HOME="${HOME:-/}" LC_ALL=C \
		make -C "$kdir" M="$work" -k -j"$jobs" "$@" "${objs[@]}" >"$work/logs/kbuild.log" 2>&1
	set -e
else
	# In-pass mode: the module's own compile command (CDEV_COMPAT_PROBE_CMD, from the fragment:
	# the kernel's NOSTDINC_FLAGS, LINUXINCLUDE, compiler_types.h, KBUILD_CPPFLAGS,
	# KBUILD_CFLAGS, KBUILD_CFLAGS_MODULE as that pass computed them; shell syntax), run in
	# that pass's directory. All probes are compiled as one translation unit, so the kernel
	# headers are read once, not once per probe; each probe keeps a file name of its own
	# (#line), and fails when a diagnostic (an error or a warning) names that file. A set
	# that does not come out with exactly one variant, and every set when an error names no
	# probe (an error in a header, a compiler failure), is compiled again one probe per
	# translation unit, in parallel, where any error fails the probe.
	export LC_ALL=C
	printf 'SRCARCH=%s\nCC=%s\n' "${CDEV_COMPAT_PROBE_SRCARCH:-}" "${CDEV_COMPAT_PROBE_CC:-}" \
		>"$work/logs/toolchain.txt"
	printf '%s\n' "$CDEV_COMPAT_PROBE_CMD" >"$work/logs/command.txt"
	# Diagnostics at the macro's use, not inside its definition; every error reported.
	# shellcheck disable=SC2034 # used in in_pass_cc's eval
	if [ "${CDEV_COMPAT_PROBE_CLANG:-}" = y ]; then
		cc_extra=(-fno-color-diagnostics -ferror-limit=0)
	else
		cc_extra=(-fno-diagnostics-color -ftrack-macro-expansion=0)
	fi

	# gen_tu OUT NAME... - the probes NAME... as one translation unit OUT. First every header
	# a probe includes outside a conditional (one that exists), so no probe's code comes
	# before a declaration another probe's header makes (an implicit declaration there
	# would be an error in the header); then each probe under its own file name (#line
	# "cdev-compat-probe/NAME.c"), its cdev_compat_* names its own, the macros it defines or
	# undefines restored after it, and its #include of a header the kernel lacks an error
	# in its own file (not the end of the compilation).
	gen_tu() {
		local out=$1 name line rest n=0 k depth h
		local inc_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*(<[^>]*>|"[^"]*")'
		local mac_re='^[[:space:]]*#[[:space:]]*(define|undef)[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)'
		local id_re='(^|[^A-Za-z0-9_])(cdev_compat_[a-z0-9_]*)(.*)$'
		local -A seen=() ids=() macros=()
		local -a lines=() hoist=() body=()
		shift
		for name in "$@"; do
			n=$((n + 1))
			ids=() macros=()
			mapfile -t lines <"${src_of[$name]}"
			depth=0
			for line in "${lines[@]}"; do
				rest=$line
				while [[ $rest =~ $id_re ]]; do
					ids[${BASH_REMATCH[2]}]=1
					rest=${BASH_REMATCH[3]}
				done
				if [[ $line =~ $mac_re ]]; then
					macros[${BASH_REMATCH[2]}]=1
				elif [[ $line =~ $inc_re ]]; then
					h=${BASH_REMATCH[1]}
					if [ "$depth" -eq 0 ] && [ -z "${seen[$h]:-}" ]; then
						seen[$h]=1
						hoist+=("$h")
					fi
				elif [[ $line =~ ^[[:space:]]*#[[:space:]]*if ]]; then
					depth=$((depth + 1))
				elif [[ $line =~ ^[[:space:]]*#[[:space:]]*endif ]]; then
					depth=$((depth - 1))
				fi
			done
			for h in "${!macros[@]}"; do
				body+=("#pragma push_macro(\"$h\")")
			done
			for h in "${!ids[@]}"; do
				body+=("#define $h ${h}__$n")
			done
			body+=("#line 1 \"cdev-compat-probe/$name.c\"")
			k=0
			for line in "${lines[@]}"; do
				k=$((k + 1))
				if [[ $line =~ $inc_re ]]; then
					h=${BASH_REMATCH[1]}
					body+=("#if __has_include($h)" "#include $h" "#else" "#line $k"
						"#error \"no $h in this kernel\"" "#endif" "#line $((k + 1))")
				else
					body+=("$line")
				fi
			done
			for h in "${!ids[@]}"; do
				body+=("#undef $h")
			done
			for h in "${!macros[@]}"; do
				body+=("#pragma pop_macro(\"$h\")")
			done
		done
		{
			printf '#ifndef __has_include\n#error "cdev-compat: the compiler lacks __has_include"\n#endif\n'
			for h in "${hoist[@]}"; do
				printf '#if __has_include(%s)\n#include %s\n#endif\n' "$h" "$h"
			done
			printf '%s\n' "${body[@]}"
		} >"$out"
	}

	# in_pass_cc ID TU - compile TU, syntax only, with the module's command: diagnostics in
	# logs/ID.cc.log, dependencies in .ID.o.d; the compiler's status.
	in_pass_cc() {
		eval "$CDEV_COMPAT_PROBE_CMD" '"${cc_extra[@]}"' -fsyntax-only '-Wp,-MMD,"$work/.$1.o.d"' \
			'"$2"' >"$work/logs/$1.cc.log" 2>&1
	}

	# attribute LOG STATUS - the diagnostics in LOG, of a compile that ended with STATUS:
	# failed[NAME]=1 for each probe a diagnostic names, its lines added to diag[NAME].
	# Returns 1 when an error names no probe, or the compile failed with no error named.
	declare -A failed=() diag=()
	attribute() {
		local line cur='' other=0 named_error=0
		local probe_re='^cdev-compat-probe/([A-Za-z0-9_.-]+)\.c:[0-9]+:([0-9]+:)? (fatal error|error|warning): '
		local any_re='^[^[:space:]][^:]*(:[0-9]+)*: (fatal error|error|warning): '
		while IFS= read -r line; do
			if [[ $line =~ $probe_re ]]; then
				cur=${BASH_REMATCH[1]}
				failed[$cur]=1
				[ "${BASH_REMATCH[3]}" = warning ] || named_error=1
			elif [[ $line =~ $any_re ]]; then
				cur=''
				[ "${BASH_REMATCH[2]}" = warning ] || other=1
			fi
			[ -z "$cur" ] || diag[$cur]+=$line$'\n'
		done <"$1"
		[ "$other" -eq 0 ] && { [ "$2" -eq 0 ] || [ "$named_error" -eq 1 ]; }
	}

	gen_tu "$work/all.c" "${names[@]}"
	status=0
	in_pass_cc all "$work/all.c" || status=$?
	alone=()
	if attribute "$work/logs/all.cc.log" "$status"; then
		declare -A set_count=()
		for name in "${names[@]}"; do
			[ -n "${failed[$name]:-}" ] || set_count[${set_of[$name]}]=$((${set_count[${set_of[$name]}]:-0} + 1))
		done
		for name in "${names[@]}"; do
			if [ "${set_count[${set_of[$name]}]:-0}" -ne 1 ]; then
				alone+=("$name")
			elif [ -z "${failed[$name]:-}" ]; then
				: >"$work/$name.o"
			else
				printf '%s' "${diag[$name]}" >"$work/logs/$name.log"
			fi
		done
	else
		alone=("${names[@]}")
	fi
	# One translation unit per probe, for the sets the shared one did not settle.
	running=0
	for name in "${alone[@]}"; do
		if [ "$running" -ge "$jobs" ]; then
			wait -n || true
			running=$((running - 1))
		fi
		{
			gen_tu "$work/$name.tu.c" "$name"
			st=0
			in_pass_cc "$name" "$work/$name.tu.c" || st=$?
			echo "$st" >"$work/$name.status"
		} &
		running=$((running + 1))
	done
	wait
	for name in "${alone[@]}"; do
		st=$(<"$work/$name.status")
		unset "failed[$name]"
		attribute "$work/logs/$name.cc.log" "$st" || true
		if [ "$st" -eq 0 ] && [ -z "${failed[$name]:-}" ]; then
			: >"$work/$name.o"
		fi
		mv -f "$work/logs/$name.cc.log" "$work/logs/$name.log"
	done
	mv -f "$work/logs/all.cc.log" "$work/logs/all.log"
	mv -f "$work/all.c" "$work/logs/all.c"
	printf 'TRANSLATION_UNITS=%d\nALONE=%s\n' $((1 + ${#alone[@]})) "${alone[*]}" >>"$work/logs/jobs.txt"
fi

# Sort the probes into their sets.
declare -A set_variants=() set_passed=()
sets=()
summary=$work/probes.txt
: >"$summary"
for name in "${names[@]}"; do
	set=${set_of[$name]}
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
	"$work"/modules.order "$work"/Module.symvers "$work"/*.status
entry=$work

log_of() {
	if [ -s "$entry/logs/$1.log" ]; then
		printf '%s' "$entry/logs/$1.log"
	else
		printf '%s' "$entry/logs/$([ "$in_pass" -eq 1 ] && echo all || echo kbuild).log"
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
		defines=${defines_of[${passed[0]}]}
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
	if [ "$in_pass" -eq 1 ]; then
		printf '%s: all logs kept in %s (the shared translation unit'"'"'s diagnostics: %s)\n' "$me" "$entry/logs" "$entry/logs/all.log" >&2
	else
		printf '%s: all logs kept in %s (Kbuild output: %s)\n' "$me" "$entry/logs" "$entry/logs/kbuild.log" >&2
	fi
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
	[ "$entry" != "$final" ] || write_record "$entry"
fi
printf '%s\n' "$entry"
