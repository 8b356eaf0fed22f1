#!/bin/bash
# prove-on-linux-source.sh - run `cdev-compat-migrate --cdev` over every file of Debian's
# linux-source-6.1 that calls register_chrdev() or __register_chrdev() (found by grep), and
# compile each converted file out of tree against the installed 6.1 headers (W=1, the compat
# Kbuild fragment, the file's own directory's headers beside it). The original is compiled the
# same way, so a failure is told apart: the conversion broke it, or the file cannot be built
# out of tree at all (arch, private headers, config). Those get `make path/file.o` in a
# configured x86_64 tree instead, original and converted, and other architectures' files the
# same with Debian's cross compilers. Prints the figures and the lists.
#
#   compat/cocci/prove-on-linux-source.sh      (5-10 minutes; work dir printed at the end)
set -euo pipefail
# shellcheck source=../../tests/host/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/host/lib.sh"

need_pkgs spatch:coccinelle python3:python3 make:make gcc:gcc filterdiff:patchutils
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

# first_error REGEX LOG SED - the first line of LOG matching REGEX, edited by SED.
first_error() {
	grep -m1 -E "$1" "$2" | sed -E "$3" || true
}

# new_diags ORIG_LOG CONV_LOG FILE - how many diagnostics about FILE the converted build has
# that the original's build has not (line numbers ignored).
new_diags() {
	comm -13 <(warnings "$1" | grep "^$3:" | sed 's/:[0-9]*:[0-9]*:/:/' | sort -u) \
		<(warnings "$2" | grep "^$3:" | sed 's/:[0-9]*:[0-9]*:/:/' | sort -u) | wc -l
}
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

converted=() notconv=() withdir=()
i=0
while read -r rel; do
	i=$((i + 1))
	id=$(printf '%02d' "$i")
	status=0
	(cd "$tree" && "$CDEV_TOP/scripts/cdev-compat-migrate" --cdev "$rel") \
		>"$work/diff/$id.diff" 2>"$work/diff/$id.log" || status=$?
	# Refused because the function that registers runs from another file: once more with the
	# other .c files of its directory (the file itself first, so that it gets the helpers'
	# definition; at most 30 files), its own hunks and its directory's headers' kept.
	if [ "$status" -eq 2 ] && grep -q 'give all the files of the module' "$work/diff/$id.log" &&
		[ "$(find "$tree/$(dirname "$rel")" -maxdepth 1 -name '*.c' | wc -l)" -le 30 ]; then
		mapfile -t others < <(cd "$tree" && find "$(dirname "$rel")" -maxdepth 1 -name '*.c' ! -path "$rel" | sort)
		status=0
		(cd "$tree" && "$CDEV_TOP/scripts/cdev-compat-migrate" --cdev "$rel" "${others[@]}") \
			>"$work/diff/$id.all.diff" 2>"$work/diff/$id.log" || status=$?
		filterdiff -i "*/$rel" -i "*/$(dirname "$rel")/*.h" "$work/diff/$id.all.diff" >"$work/diff/$id.diff" || true
		[ "$status" -ne 0 ] || withdir+=("$rel")
	fi
	if [ "$status" -eq 0 ] && [ -s "$work/diff/$id.diff" ]; then
		converted+=("$id:$rel")
	else
		why=$(grep -m1 'not converted:' "$work/diff/$id.log" | sed 's/^cdev-compat-migrate: [^:]*:\([0-9]*\): not converted: /line \1: /' || true)
		notconv+=("$rel: ${why:-no change}")
	fi
	# Original and converted file, each in its own Kbuild subdirectory with its siblings' headers.
	for kind in orig conv; do
		d=$work/$kind/d$id
		mkdir -p "$d"
		cp "$tree/$(dirname "$rel")"/*.h "$d/" 2>/dev/null || true
		cp "$tree/$rel" "$d/"
		if [ "$kind" = conv ] && [ -s "$work/diff/$id.diff" ]; then
			# (the diff may change a header of the file's directory too)
			patch -s -d "$d" -p1 --no-backup-if-mismatch \
				< <(sed "s#^\(---\|+++\) [ab]/$(dirname "$rel")/#\1 a/#" "$work/diff/$id.diff") ||
				die "the conversion of $rel changes a file outside its directory; see $work/diff/$id.diff"
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

echo "converted whole by cdev-compat-migrate --cdev: ${#converted[@]} of $total (the others refused, unchanged)"
echo "  of which given with the other .c files of their directory (the registering function runs from one): ${#withdir[@]}"
for c in "${withdir[@]}"; do echo "    $c"; done
ok_n=0 fail=() cannot=()
for c in "${converted[@]}"; do
	id=${c%%:*} rel=${c#*:}
	o=$(basename "$rel" .c).o
	if [ -f "$work/conv/d$id/$o" ]; then
		ok_n=$((ok_n + 1))
		new=$(new_diags "$work/orig/build.log" "$work/conv/build.log" "${o%.o}\.c")
		echo "  CC ok   $rel (new W=1 diagnostics: $new)"
	elif [ ! -f "$work/orig/d$id/$o" ]; then
		err=$(first_error "d$id/[^:]*:[0-9]+:[0-9]+: (fatal )?error:" "$work/orig/build.log" 's#^.*/d[0-9]+/##')
		cannot+=("$rel: the original does not build out of tree either: ${err:-see $work/orig/build.log}")
	else
		err=$(first_error "d$id/[^:]*:[0-9]+:[0-9]+: (fatal )?error:" "$work/conv/build.log" 's#^.*/d[0-9]+/##')
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
	# make's target is the object as its Makefile names it (scripts/lib.sh kbuild_target).
	objs=()
	for c in "${cannot[@]}"; do
		rel=${c%%: *}
		objs+=("$(kbuild_target "${rel%.c}.o")")
	done
	# -j1: with -j, a file that is also part of a composite module can be compiled twice at
	# once, and the two race on its .d file (as kernel/check-port.sh found).
	make -C "$ktree" O="$kobj" -k -j1 "${objs[@]}" >"$work/intree-orig.log" 2>&1 || true
	for c in "${converted[@]}"; do
		id=${c%%:*} rel=${c#*:}
		case " ${cannot[*]} " in *" $rel: "*) ;; *) continue ;; esac
		mkdir -p "$work/intree-orig/$(dirname "$rel")"
		[ ! -f "$kobj/${rel%.c}.o" ] || mv "$kobj/${rel%.c}.o" "$work/intree-orig/${rel%.c}.o"
		rm "$ktree/$rel"
		cp "$work/conv/d$id/$(basename "$rel")" "$ktree/$rel"
	done
	make -C "$ktree" O="$kobj" -k -j1 KCFLAGS="-I$probed -I$CDEV_TOP/compat/include -I$CDEV_TOP/compat/changes" \
		"${objs[@]}" >"$work/intree-conv.log" 2>&1 || true
	for o in "${objs[@]}"; do
		o=$(realpath -m --relative-to=. "$o")
		rel=${o%.o}.c
		if [ -f "$kobj/$o" ]; then
			new=$(new_diags "$work/intree-orig.log" "$work/intree-conv.log" "$(basename "$rel")")
			intree_ok+=("$rel (new diagnostics: $new)")
		elif [ ! -f "$work/intree-orig/$o" ]; then
			err=$(first_error "(No rule to make target '$o'|${rel//./\\.}:[0-9]+:[0-9]+: (fatal )?error:)" \
				"$work/intree-orig.log" 's#^.*/ktree/##; s#^.*\*\*\* ##')
			intree_fail+=("$rel: the original does not build in the x86_64 tree either: ${err:-see $work/intree-orig.log}")
		else
			err=$(first_error "${rel//./\\.}:[0-9]+:[0-9]+: (fatal )?error:" "$work/intree-conv.log" 's#^.*/ktree/##')
			fail+=("$rel (in tree): ${err:-see $work/intree-conv.log}")
		fi
	done
fi

# Other architectures' files: the same make path/file.o with Debian's cross compilers
# (scripts/lib.sh cross_target), original first, then converted.
cross_ok=()
if [ ${#intree_fail[@]} -gt 0 ]; then
	declare -A groups=()
	rest=()
	for c in "${intree_fail[@]}"; do
		rel=${c%%: *}
		t=$(cross_target "$rel")
		if [ -n "$t" ]; then groups[$t]+="$rel "; else rest+=("$c"); fi
	done
	for t in "${!groups[@]}"; do
		read -r arch _ _ config <<<"$t"
		xobj=$work/kobj-$arch-$config
		log "configuring $arch $config for ${groups[$t]}"
		cross_configure "$ktree" "$xobj" "$t"
		mapfile -t margs < <(cross_make_args "$t")
		probed=$("$CDEV_TOP/compat/probes/run-probes.sh" "$xobj" "${margs[@]}")
		xo=()
		for rel in ${groups[$t]}; do
			xo+=("${rel%.c}.o")
			rm "$ktree/$rel"
			cp "$tree/$rel" "$ktree/$rel"
		done
		make -C "$ktree" O="$xobj" "${margs[@]}" -k -j1 "${xo[@]}" >"$xobj-orig.log" 2>&1 || true
		for rel in ${groups[$t]}; do
			o=${rel%.c}.o
			mkdir -p "$work/cross-orig/$(dirname "$rel")"
			[ ! -f "$xobj/$o" ] || mv "$xobj/$o" "$work/cross-orig/$o"
			for c in "${converted[@]}"; do
				[ "${c#*:}" = "$rel" ] || continue
				rm "$ktree/$rel"
				cp "$work/conv/d${c%%:*}/$(basename "$rel")" "$ktree/$rel"
			done
		done
		make -C "$ktree" O="$xobj" "${margs[@]}" -k -j1 KCFLAGS="-I$probed -I$CDEV_TOP/compat/include -I$CDEV_TOP/compat/changes" \
			"${xo[@]}" >"$xobj-conv.log" 2>&1 || true
		for rel in ${groups[$t]}; do
			o=${rel%.c}.o
			if [ -f "$xobj/$o" ]; then
				cross_ok+=("$rel ($arch $config, new diagnostics: $(new_diags "$xobj-orig.log" "$xobj-conv.log" "$(basename "$rel")"))")
			elif [ ! -f "$work/cross-orig/$o" ]; then
				rest+=("$rel: the original does not build for $arch $config either: $(first_error \
					"${rel//./\\.}:[0-9]+:[0-9]+: (fatal )?error:|No rule to make target '$o'" "$xobj-orig.log" 's#^.*/ktree/##; s#^.*\*\*\* ##')")
			else
				fail+=("$rel ($arch): $(first_error "${rel//./\\.}:[0-9]+:[0-9]+: (fatal )?error:" "$xobj-conv.log" 's#^.*/ktree/##')")
			fi
		done
	done
	intree_fail=("${rest[@]}")
fi

echo "converted files that compile out of tree (6.1 headers, W=1): $ok_n of ${#converted[@]}"
echo "of the other ${#cannot[@]}, compiled with make path/file.o in a configured x86_64 tree: ${#intree_ok[@]}"
for c in "${intree_ok[@]}"; do echo "  CC ok   $c"; done
echo "refused, left unchanged (${#notconv[@]}), the first reason of each:"
for c in "${notconv[@]}"; do echo "  $c"; done
echo "compiled for their own architecture with Debian's cross compilers: ${#cross_ok[@]}"
for c in "${cross_ok[@]}"; do echo "  CC ok   $c"; done
echo "converted, not compiled anywhere (${#intree_fail[@]}):"
for c in "${intree_fail[@]}"; do echo "  $c"; done
echo "converted, compile FAILED although the original builds (${#fail[@]}):"
for c in "${fail[@]}"; do echo "  $c"; done
echo "work dir: $work"
[ ${#fail[@]} -eq 0 ]
