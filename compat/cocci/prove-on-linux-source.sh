#!/bin/bash
# prove-on-linux-source.sh - run `cdev-compat-migrate --cdev` over every file of Debian's
# linux-source-6.1 that calls register_chrdev() or __register_chrdev() (found by grep), and
# compile each converted file out of tree against the installed 6.1 headers (W=1, the compat
# Kbuild fragment, the file's own directory's headers beside it). The original is compiled the
# same way, so a failure is told apart: the conversion broke it, or the file cannot be built
# out of tree at all (arch, private headers, config). Prints the figures and the failure list.
#
#   compat/cocci/prove-on-linux-source.sh      (a few minutes; work dir printed at the end)
set -euo pipefail
# shellcheck source=../../tests/host/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/host/lib.sh"

need_pkgs spatch:coccinelle python3:python3 make:make gcc:gcc
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)
if [ -z "$ver" ]; then
	source_files Makefile >/dev/null
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
fi
tree=$CDEV_COMPAT_CACHE/migrate/src/$ver
if [ ! -d "$tree" ]; then
	log "extracting /usr/src/linux-source-6.1.tar.xz into $tree (once)"
	mkdir -p "$tree.tmp"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$tree.tmp" --strip-components=1
	mv "$tree.tmp" "$tree"
fi
kdir=$(headers_twoarg)
work=$TEST_WORK/prove
rm -rf "$work"
mkdir -p "$work/conv" "$work/orig" "$work/diff"

# The list, by a command: callers of register_chrdev( or __register_chrdev( (not the
# unregister calls, not the definition in fs/char_dev.c).
(cd "$tree" && grep -rlE --include='*.c' '(^|[^A-Za-z0-9_])(__)?register_chrdev[[:space:]]*\(' . |
	sed 's#^\./##' | grep -vx 'fs/char_dev.c' | sort) >"$work/files"
total=$(wc -l <"$work/files")
echo "files calling register_chrdev(/__register_chrdev( in linux-source-$ver: $total"
echo "  (grep -rlE --include='*.c' '(^|[^A-Za-z0-9_])(__)?register_chrdev[[:space:]]*\\(' minus fs/char_dev.c)"

converted=() notconv=()
i=0
while read -r rel; do
	i=$((i + 1))
	id=$(printf '%02d' "$i")
	status=0
	(cd "$tree" && "$CDEV_TOP/scripts/cdev-compat-migrate" --cdev "$rel") \
		>"$work/diff/$id.diff" 2>"$work/diff/$id.log" || status=$?
	if [ "$status" -eq 0 ] && [ -s "$work/diff/$id.diff" ]; then
		converted+=("$id:$rel")
	else
		why=$(grep -m1 -E '^  [0-9]+:' "$work/diff/$id.log" | sed 's/^ *//' || true)
		notconv+=("$rel: ${why:-no change}")
	fi
	# Original and converted file, each in its own Kbuild subdirectory with its siblings' headers.
	for kind in orig conv; do
		d=$work/$kind/d$id
		mkdir -p "$d"
		cp "$tree/$(dirname "$rel")"/*.h "$d/" 2>/dev/null || true
		cp "$tree/$rel" "$d/"
		if [ "$kind" = conv ] && [ -s "$work/diff/$id.diff" ]; then
			patch -s -d "$d" -p1 --no-backup-if-mismatch \
				< <(sed "s#^\(---\|+++\) [ab]/$(dirname "$rel")/#\1 a/#" "$work/diff/$id.diff")
		fi
		printf 'obj-m := %s.o\nccflags-y += -I%s/%s -I%s/include\ninclude %s/compat/cdev-compat.mk\n' \
			"$(basename "$rel" .c)" "$tree" "$(dirname "$rel")" "$tree" "$CDEV_TOP" >"$d/Kbuild"
		echo "obj-m += d$id/" >>"$work/$kind/Kbuild"
	done
done <"$work/files"

for kind in orig conv; do
	log "compiling the $kind files out of tree against $kdir (W=1)"
	make -C "$kdir" M="$work/$kind" W=1 -k -j"$(nproc)" modules >"$work/$kind/build.log" 2>&1 || true
done

echo "converted by the semantic patch (no register/unregister call left): ${#converted[@]} of $total"
ok_n=0 fail=() cannot=()
for c in "${converted[@]}"; do
	id=${c%%:*} rel=${c#*:}
	o=$(basename "$rel" .c).o
	if [ -f "$work/conv/d$id/$o" ]; then
		ok_n=$((ok_n + 1))
		new=$(comm -13 <(warnings "$work/orig/build.log" | grep "^${o%.o}\.c:" | sed 's/:[0-9]*:[0-9]*:/:/' | sort -u) \
			<(warnings "$work/conv/build.log" | grep "^${o%.o}\.c:" | sed 's/:[0-9]*:[0-9]*:/:/' | sort -u) | wc -l)
		echo "  CC ok   $rel (new W=1 diagnostics: $new)"
	elif [ ! -f "$work/orig/d$id/$o" ]; then
		err=$(grep -m1 -E "d$id/[^:]*:[0-9]+:[0-9]+: (fatal )?error:" "$work/orig/build.log" |
			sed -E 's#^.*/d[0-9]+/##' || true)
		cannot+=("$rel: the original does not build out of tree either: ${err:-see $work/orig/build.log}")
	else
		err=$(grep -m1 -E "d$id/[^:]*:[0-9]+:[0-9]+: (fatal )?error:" "$work/conv/build.log" |
			sed -E 's#^.*/d[0-9]+/##' || true)
		fail+=("$rel: ${err:-see $work/conv/build.log}")
	fi
done
echo "converted files that compile out of tree (6.1 headers, W=1): $ok_n of ${#converted[@]}"
echo "not converted (${#notconv[@]}):"
for c in "${notconv[@]}"; do echo "  $c"; done
echo "converted, cannot be compiled out of tree (${#cannot[@]}):"
for c in "${cannot[@]}"; do echo "  $c"; done
echo "converted, compile FAILED although the original builds (${#fail[@]}):"
for c in "${fail[@]}"; do echo "  $c"; done
echo "work dir: $work"
[ ${#fail[@]} -eq 0 ]
