#!/bin/bash
# prove-on-linux-source.sh - run `cdev-compat-migrate --cdev` over every file of Debian's
# linux-source-6.1 that calls register_chrdev() or __register_chrdev() (found by grep), and
# compile each converted file out of tree against the installed 6.1 headers (W=1, the compat
# Kbuild fragment, the file's own directory's headers beside it). The original is compiled the
# same way, so a failure is told apart: the conversion broke it, or the file cannot be built
# out of tree at all (arch, private headers, config). Those get `make path/file.o` in a
# configured x86_64 tree instead, original and converted. Prints the figures and the lists.
#
#   compat/cocci/prove-on-linux-source.sh      (5-10 minutes; work dir printed at the end)
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
# What cannot be built out of tree gets `make path/file.o` in a configured tree instead: a
# hard-linked copy of the source (x86_64 allmodconfig, CONFIG_WERROR off so that warnings are
# counted, not fatal), the original first, then the converted file in its place (with the compat
# include path and the probes' header for that tree). Files of other architectures fail there
# with "No rule to make target" (no cross compiler is run); that is their reason.
intree_ok=() intree_fail=()
if [ ${#cannot[@]} -gt 0 ]; then
	ktree=$work/ktree kobj=$work/kobj
	log "configuring a hard-linked copy of the tree for make path/file.o (x86_64 allmodconfig)"
	cp -al "$tree" "$ktree"
	make -s -C "$ktree" O="$kobj" allmodconfig >"$work/kobj.log" 2>&1
	"$ktree/scripts/config" --file "$kobj/.config" -d WERROR
	make -s -C "$ktree" O="$kobj" olddefconfig >>"$work/kobj.log" 2>&1
	make -C "$ktree" O="$kobj" -j"$(nproc)" prepare >>"$work/kobj.log" 2>&1 ||
		die "make prepare in $kobj failed; see $work/kobj.log"
	probed=$("$CDEV_TOP/compat/probes/run-probes.sh" "$kobj")
	# make's target is the object as its Makefile names it: amdkfd's files are built by
	# amdgpu's Makefile (AMDKFD_PATH := ../amdkfd), with amdgpu's include flags.
	objs=()
	for c in "${cannot[@]}"; do
		rel=${c%%: *}
		case "$rel" in
		drivers/gpu/drm/amd/amdkfd/*) objs+=("drivers/gpu/drm/amd/amdgpu/../amdkfd/$(basename "$rel" .c).o") ;;
		*) objs+=("${rel%.c}.o") ;;
		esac
	done
	make -C "$ktree" O="$kobj" -k -j"$(nproc)" "${objs[@]}" >"$work/intree-orig.log" 2>&1 || true
	for c in "${converted[@]}"; do
		id=${c%%:*} rel=${c#*:}
		case " ${cannot[*]} " in *" $rel: "*) ;; *) continue ;; esac
		mkdir -p "$work/intree-orig/$(dirname "$rel")"
		[ ! -f "$kobj/${rel%.c}.o" ] || mv "$kobj/${rel%.c}.o" "$work/intree-orig/${rel%.c}.o"
		rm "$ktree/$rel"
		cp "$work/conv/d$id/$(basename "$rel")" "$ktree/$rel"
	done
	make -C "$ktree" O="$kobj" -k -j"$(nproc)" KCFLAGS="-I$probed -I$CDEV_TOP/compat/include" \
		"${objs[@]}" >"$work/intree-conv.log" 2>&1 || true
	for o in "${objs[@]}"; do
		o=$(realpath -m --relative-to=. "$o")
		rel=${o%.o}.c
		if [ -f "$kobj/$o" ]; then
			new=$(comm -13 <(warnings "$work/intree-orig.log" | grep "^$(basename "$rel"):" | sed 's/:[0-9]*:[0-9]*:/:/' | sort -u) \
				<(warnings "$work/intree-conv.log" | grep "^$(basename "$rel"):" | sed 's/:[0-9]*:[0-9]*:/:/' | sort -u) | wc -l)
			intree_ok+=("$rel (new diagnostics: $new)")
		elif [ ! -f "$work/intree-orig/$o" ]; then
			err=$(grep -m1 -E "(No rule to make target '$o'|${rel//./\\.}:[0-9]+:[0-9]+: (fatal )?error:)" \
				"$work/intree-orig.log" | sed -E 's#^.*/ktree/##; s#^.*\*\*\* ##' || true)
			intree_fail+=("$rel: the original does not build in the x86_64 tree either: ${err:-see $work/intree-orig.log}")
		else
			err=$(grep -m1 -E "${rel//./\\.}:[0-9]+:[0-9]+: (fatal )?error:" "$work/intree-conv.log" |
				sed -E 's#^.*/ktree/##' || true)
			fail+=("$rel (in tree): ${err:-see $work/intree-conv.log}")
		fi
	done
fi

echo "converted files that compile out of tree (6.1 headers, W=1): $ok_n of ${#converted[@]}"
echo "of the other ${#cannot[@]}, compiled with make path/file.o in a configured x86_64 tree: ${#intree_ok[@]}"
for c in "${intree_ok[@]}"; do echo "  CC ok   $c"; done
echo "not converted (${#notconv[@]}):"
for c in "${notconv[@]}"; do echo "  $c"; done
echo "converted, cannot be compiled out of tree nor in the x86_64 tree (${#intree_fail[@]}):"
for c in "${intree_fail[@]}"; do echo "  $c"; done
echo "converted, compile FAILED although the original builds (${#fail[@]}):"
for c in "${fail[@]}"; do echo "  $c"; done
echo "work dir: $work"
[ ${#fail[@]} -eq 0 ]
