#!/bin/bash
# t-changes.sh - the API changes between 5.10 and 7.3 that cdev-compat bridges (compat/changes/,
# issue 33), on real header trees of both sides: Debian 11's 5.10 (downloaded), Debian 12's
# 6.1 (installed) and the 7.3 base of the one-arg kernels (kernel/headers-tree.sh: configured
# and prepared, not built):
# - each change is described (change.conf: title, kernel, old, new, vendor, errors, expect.K);
# - on each tree every probe set has one verdict (run-probes.sh fails otherwise) and it is the
#   one change.conf expects there;
# - the corpus of each spelling (tests/changes/stage.sh: every change's corpus/old.c or new.c,
#   the old one as cdev-compat-migrate --api converts it where the source must change) builds
#   with the documented force-include line and W=1, with no diagnostic, on every tree (on 7.3
#   objects only: the prepared tree has no Module.symvers to link against);
# - without cdev-compat each spelling builds on its own side, and at least one fails on the
#   other side: the corpus uses what changed;
# - the vendor matrix's diagnosis names the change of each such failure;
# - docs/vendors.md's table is current.
# T_CHANGES_KERNELS="7.3" (a subset of 5.10 6.1 7.3) limits the probes and corpus builds to
# those trees, and drops the parts that need both sides; T_CHANGES_ONLY="NAME..." limits the
# corpus builds and the per-change checks to those changes (what a mutant's run needs).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

work=$TEST_WORK/changes
rm -rf "$work"
mkdir -p "$work"
changes=$CDEV_TOP/compat/changes
probes=$CDEV_TOP/compat/probes/run-probes.sh

# --- the descriptions ------------------------------------------------------------------------
names=()
for dir in "$changes"/*/; do
	dir=${dir%/}
	names+=("${dir##*/}")
done
check "there are API changes (${#names[@]}: ${names[*]})" test "${#names[@]}" -gt 0
if [ -n "${T_CHANGES_ONLY:-}" ]; then
	read -r -a names <<<"$T_CHANGES_ONLY"
	for name in "${names[@]}"; do
		[ -d "$changes/$name" ] || die "T_CHANGES_ONLY: no change '$name'"
	done
fi
export CC_ONLY=${T_CHANGES_ONLY:-}
for name in "${names[@]}"; do
	conf=$changes/$name/change.conf
	lacks=''
	for field in title kernel old new vendor errors expect.5.10 expect.6.1 expect.7.3; do
		grep -q "^$field=." "$conf" 2>/dev/null || lacks+=" $field"
	done
	for f in corpus/old.c corpus/new.c corpus/test.c; do
		[ -f "$changes/$name/$f" ] || lacks+=" $f"
	done
	compgen -G "$changes/$name/probe-*.c" >/dev/null || lacks+=" probe-*.c"
	check "$name is described: change.conf, probes, corpus (missing:${lacks:- nothing})" test -z "$lacks"
done

# --- the probes on each tree -------------------------------------------------------------------
read -r -a kernels <<<"${T_CHANGES_KERNELS:-5.10 6.1 7.3}"
declare -A tree=() args=()
for k in "${kernels[@]}"; do
	case "$k" in
	5.10)
		tree[5.10]=$(headers_bullseye)
		args[5.10]="${HEADERS_BULLSEYE_ARGS[*]}"
		;;
	6.1) tree[6.1]=$(headers_twoarg) args[6.1]= ;;
	7.3) tree[7.3]=$("$CDEV_TOP/kernel/headers-tree.sh" --base 7.3) args[7.3]= ;;
	*) die "T_CHANGES_KERNELS: no tree for '$k' (5.10 6.1 7.3)" ;;
	esac
done
both_sides=0
[ -z "${tree[5.10]:-}" ] || [ -z "${tree[7.3]:-}" ] || both_sides=1
declare -A probed=()
for k in "${kernels[@]}"; do
	# shellcheck disable=SC2086 # the tree's make arguments, one word each
	if probed[$k]=$("$probes" "${tree[$k]}" ${args[$k]} 2>"$work/probes-$k.err"); then
		ok "probes on $k (${tree[$k]}): one verdict per set"
	else
		not_ok "probes on $k (${tree[$k]}): $(head -c 400 "$work/probes-$k.err")"
		probed[$k]=/nonexistent
	fi
done
for name in "${names[@]}"; do
	for k in "${kernels[@]}"; do
		want=$(sed -n "s/^expect\\.$k=//p" "$changes/$name/change.conf")
		bad=''
		for pair in $want; do
			grep -qx "#define ${pair%%=*} ${pair#*=}" "${probed[$k]}/cdev_compat_probes.h" 2>/dev/null ||
				bad+=" ${pair%%=*}=$(sed -n "s/^#define ${pair%%=*} //p" "${probed[$k]}/cdev_compat_probes.h" 2>/dev/null)"
		done
		check "$name on $k: the probes say $want${bad:+ (got:$bad)}" test -z "$bad"
	done
done

# --- the corpus, with cdev-compat and without --------------------------------------------------
# build_objs K DIR LOG OBJ... - compile OBJs of DIR against kernel K with W=1 (objects only).
build_objs() {
	local k=$1 dir=$2 logf=$3
	shift 3
	# shellcheck disable=SC2086
	make -C "${tree[$k]}" M="$dir" W=1 -j"$(nproc)" ${args[$k]} "$@" >"$logf" 2>&1
}
for spelling in old new; do
	CC_FRAGMENT=$CDEV_TOP/compat/cdev-compat.mk "$CDEV_TOP/tests/changes/stage.sh" \
		"$work/stage-$spelling" "$spelling" >/dev/null
	for k in "${kernels[@]}"; do
		dir=$work/$spelling-$k
		cp -r "$work/stage-$spelling" "$dir"
		status=0
		objs=()
		for c in "$dir"/cc_*.c; do
			case "$c" in *.orig.c) ;; *) c=${c##*/} objs+=("${c%.c}.o") ;; esac
		done
		made=0
		if [ "$k" = 7.3 ]; then
			build_objs "$k" "$dir" "$dir/build.log" "${objs[@]}" || status=$?
			for c in "${objs[@]}"; do [ ! -f "$dir/$c" ] || made=$((made + 1)); done
		else
			# shellcheck disable=SC2086
			make -C "${tree[$k]}" M="$dir" W=1 -j"$(nproc)" ${args[$k]} modules >"$dir/build.log" 2>&1 || status=$?
			for c in "${objs[@]}"; do [ ! -f "$dir/${c%.o}.ko" ] || made=$((made + 1)); done
		fi
		want=${#objs[@]}
		n=$(warnings "$dir/build.log" | wc -l)
		check "the $spelling spelling's corpus builds on $k with the force-include line, W=1, no diagnostic (status $status, $made of $want built, $n diagnostics; log $dir/build.log)" \
			test "$status" -eq 0 -a "$n" -eq 0 -a "$made" -eq "$want"
	done
done

# The other documented way, #include <cdev_compat.h> after the driver's includes (no
# force-include): each spelling on the side it was not written for.
for sk in old-7.3 new-5.10; do
	spelling=${sk%%-*} k=${sk#*-}
	[ -n "${tree[$k]:-}" ] || continue
	dir=$work/include-$sk
	CC_INCLUDE=1 CC_FRAGMENT=$CDEV_TOP/compat/cdev-compat.mk "$CDEV_TOP/tests/changes/stage.sh" \
		"$dir" "$spelling" >/dev/null
	objs=()
	for c in "$dir"/cc_*.c; do
		case "$c" in *.orig.c) ;; *) c=${c##*/} objs+=("${c%.c}.o") ;; esac
	done
	status=0
	build_objs "$k" "$dir" "$dir/build.log" "${objs[@]}" || status=$?
	made=0
	for c in "${objs[@]}"; do [ ! -f "$dir/$c" ] || made=$((made + 1)); done
	n=$(warnings "$dir/build.log" | wc -l)
	check "the $spelling spelling's corpus compiles on $k with #include <cdev_compat.h>, W=1, no diagnostic (status $status, $made of ${#objs[@]}, $n diagnostics; log $dir/build.log)" \
		test "$status" -eq 0 -a "$n" -eq 0 -a "$made" -eq "${#objs[@]}"
done

# Without cdev-compat: the corpus drivers as written, one Kbuild pass per spelling and tree
# (make -k: each object builds or fails on its own).
declare -A native=()
names_native=("${names[@]}")
[ "$both_sides" -eq 1 ] || names_native=()
for spelling in old new; do
	[ "$both_sides" -eq 1 ] || break
	for k in 5.10 7.3; do
		dir=$work/native-$spelling-$k
		mkdir -p "$dir"
		cp "$CDEV_TOP/tests/changes/cc_corpus.h" "$dir/"
		objs=()
		for name in "${names[@]}"; do
			cp "$changes/$name/corpus/$spelling.c" "$dir/cc_${name}_$spelling.c"
			objs+=("cc_${name}_$spelling.o")
		done
		printf 'obj-m += %s\n' "${objs[@]}" >"$dir/Kbuild"
		build_objs "$k" "$dir" "$dir/build.log" -k "${objs[@]}" || true
		for name in "${names[@]}"; do
			if [ -f "$dir/cc_${name}_$spelling.o" ]; then
				native[$name-$spelling-$k]=builds
			else
				native[$name-$spelling-$k]=fails
			fi
		done
	done
done
for name in ${names_native+"${names_native[@]}"}; do
	o5=${native[$name-old-5.10]} o7=${native[$name-old-7.3]} n5=${native[$name-new-5.10]} n7=${native[$name-new-7.3]}
	check "$name without cdev-compat: the old spelling builds on 5.10 ($o5), the new on 7.3 ($n7)" \
		test "$o5" = builds -a "$n7" = builds
	check "$name without cdev-compat: the old spelling fails on 7.3 ($o7) or the new on 5.10 ($n5)" \
		test "$o7" = fails -o "$n5" = fails
done

# --- the vendor matrix names the change that hit ----------------------------------------------
# shellcheck source=../matrix/lib/vendor.sh
. "$CDEV_TOP/tests/matrix/lib/vendor.sh"
for name in ${names_native+"${names_native[@]}"}; do
	for sk in old-7.3 new-5.10; do
		[ "${native[$name-$sk]}" = fails ] || continue
		grep "cc_${name}_${sk%%-*}" "$work/native-$sk/build.log" >"$work/diag-$name-$sk.log" || true
		got=$(vendor_diagnose "$work/diag-$name-$sk.log")
		check "a build of the ${sk%%-*} spelling of $name failing on ${sk#*-} is diagnosed as $name ('$got')" \
			test "${got#API change "$name": }" != "$got"
	done
done
printf 'x.c:1:2: error: expected identifier before numeric constant\n' >"$work/diag-other.log"
got=$(vendor_diagnose "$work/diag-other.log")
check "an error of no API change is diagnosed as none ('$got')" test "${got#none of the API changes}" != "$got"

# --- docs/vendors.md lists every change, as compat/changes/table.sh prints them ---------------
doc=$(sed -n '/^<!-- changes-table:/,/^<!-- \/changes-table -->/p' "$CDEV_TOP/docs/vendors.md" | sed '1d;$d')
check "docs/vendors.md's table of the API changes is compat/changes/table.sh's output" \
	test "$doc" = "$("$changes/table.sh")"
