#!/bin/bash
# shellcheck disable=SC2016 # check commands in single quotes are eval'd, and expand there
# t-migrate-corpus.sh - cdev-compat-migrate --cdev over the migration corpus
# (tests/migrate-corpus/: legacy-driver shapes written for the test). Each shape's expect file
# lists runs of the tool (in a copy, --in-place) and what each must give: the exit status, the
# reasons on stderr, files unchanged (whole or nothing), lines the conversion must or must not
# write. A run that converts must leave no (un)register_chrdev() in the code and be a fixed
# point (a second run changes nothing). Then the corpus as the guests get it
# (tests/legacy/stage-corpus.sh): the drivers as written, with the header force-included, and
# converted, each built with W=1 against the two-arg and the one-arg headers: every module
# builds, with no diagnostic at all (the drivers' own or the header's, modpost's included).
# T_MIGRATE_SHAPES=NAME,... runs only those shapes' expect files.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_pkgs perl:perl
need_coccinelle
tool=$CDEV_TOP/scripts/cdev-compat-migrate
corpus=$CDEV_TOP/tests/migrate-corpus
work=$TEST_WORK/migrate-corpus
rm -rf "$work"
mkdir -p "$work"

# code_calls DIR - the (un)register_chrdev identifiers left in DIR's code (comments and
# strings aside), as FILE:LINE.
code_calls() {
	python3 - "$1" <<'EOPY'
import os
import re
import sys

pat = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
for f in sorted(os.listdir(sys.argv[1])):
    if not f.endswith(('.c', '.h')):
        continue
    src = open(os.path.join(sys.argv[1], f)).read()
    code = pat.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), src)
    for n, line in enumerate(code.split('\n'), 1):
        if re.search(r'(?<![A-Za-z0-9_])(__)?(un)?register_chrdev(?![A-Za-z0-9_])', line):
            print('%s:%d' % (f, n))
EOPY
}

# finish - the checks of the run block read so far.
finish() {
	[ "$in_run" = 1 ] || return 0
	in_run=0
	local name="$shape: cdev-compat-migrate ${run_args[*]} ${run_files[*]}"
	check "$name: exit status $want_status (got $run_status; stderr $run_dir.err)" test "$run_status" -eq "$want_status"
	if [ "$run_status" -eq 0 ] && [ "$report" = 0 ]; then
		left=$(code_calls "$run_dir" | tr '\n' ' ')
		check "$name: no (un)register_chrdev left in the code${left:+ ($left)}" test -z "$left"
		cp -r "$run_dir" "$run_dir.again"
		st=0
		(cd "$run_dir.again" && "$tool" --cdev "${run_args[@]}" --in-place "${run_files[@]}") \
			>"$run_dir.again.out" 2>&1 || st=$?
		check "$name: a second run changes nothing (status $st)" \
			eval "[ $st -eq 0 ] && diff -r -q '$run_dir' '$run_dir.again' >/dev/null"
	fi
	local c kind rest file text first second a b
	for c in "${checks[@]}"; do
		kind=${c%% *} rest=${c#* }
		case "$kind" in
		unchanged)
			check "$name: every file unchanged" diff -r -q "$shape_dir" "$run_dir" ;;
		same)
			check "$name: $rest unchanged" cmp -s "$shape_dir/$rest" "$run_dir/$rest" ;;
		stderr)
			check "$name: stderr says '$rest'" grep -qF -- "$rest" "$run_dir.err" ;;
		stdout)
			check "$name: stdout says '$rest'" grep -qF -- "$rest" "$run_dir.out" ;;
		stdoutcount)
			check "$name: stdout has $rest lines (got $(wc -l <"$run_dir.out"))" \
				test "$(wc -l <"$run_dir.out")" -eq "$rest" ;;
		stderrcount)
			check "$name: stderr names $rest refused call(s)" \
				test "$(grep -c 'not converted:' "$run_dir.err")" -eq "$rest" ;;
		has | lacks)
			file=${rest%%$'\t'*} text=${rest#*$'\t'}
			if [ "$kind" = has ]; then
				check "$name: $file has '$text'" grep -qF -- "$text" "$run_dir/$file"
			else
				check "$name: $file lacks '$text'" eval '! grep -qF -- "$text" "$run_dir/$file"'
			fi
			;;
		before)
			file=${rest%%$'\t'*} text=${rest#*$'\t'}
			first=${text%%$'\t'*} second=${text#*$'\t'}
			a=$(grep -nF -m1 -- "$first" "$run_dir/$file" | cut -d: -f1 || true)
			b=$(grep -nF -m1 -- "$second" "$run_dir/$file" | cut -d: -f1 || true)
			check "$name: in $file, '$first' (line ${a:-none}) comes before '$second' (line ${b:-none})" \
				eval '[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]'
			;;
		*) not_ok "$shape/expect: unknown check '$c'" ;;
		esac
	done
}

runs=0
for shape_dir in "$corpus"/*/; do
	shape_dir=${shape_dir%/}
	shape=$(basename "$shape_dir")
	[ -z "${T_MIGRATE_SHAPES:-}" ] || [[ ,$T_MIGRATE_SHAPES, == *",$shape,"* ]] || continue
	[ -f "$shape_dir/expect" ] || { not_ok "$shape: no expect file"; continue; }
	n=0 in_run=0
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in '' | '#'*) continue ;; esac
		kw=${line%% *}
		case "$kw" in
		run)
			finish
			n=$((n + 1)) runs=$((runs + 1))
			read -r -a words <<<"${line#run }"
			run_args=() run_files=()
			for w in "${words[@]}"; do
				case "$w" in *.c) run_files+=("$w") ;; *) run_args+=("$w") ;; esac
			done
			run_dir=$work/$shape-$n
			cp -r "$shape_dir" "$run_dir"
			run_status=0 report=0
			case " ${run_args[*]} " in *" --report "*) report=1 ;; esac
			if [ "$report" = 1 ]; then
				(cd "$run_dir" && "$tool" "${run_args[@]}" "${run_files[@]}")
			else
				(cd "$run_dir" && "$tool" --cdev "${run_args[@]}" --in-place "${run_files[@]}")
			fi >"$run_dir.out" 2>"$run_dir.err" || run_status=$?
			checks=() want_status=0 in_run=1
			;;
		status) want_status=${line#status } ;;
		*) checks+=("$line") ;;
		esac
	done <"$shape_dir/expect"
	finish
	check "$shape: the expect file has at least one run" test "$n" -gt 0
done
check "the corpus has at least 8 shapes with runs ($runs runs)" \
	test "$(find "$corpus" -name expect | wc -l)" -ge 8
# T_MIGRATE_SHAPES=early,range: only those shapes' runs (the mutants use it), no builds.
[ -z "${T_MIGRATE_SHAPES:-}" ] || exit 0

# The corpus as the guests get it: stage, then build both variants on both trees.
staged=$work/staged
if "$CDEV_TOP/tests/legacy/stage-corpus.sh" "$staged" >"$work/stage.log" 2>&1; then
	ok "stage-corpus.sh converts every guest driver of the corpus whole"
else
	not_ok "stage-corpus.sh converts every guest driver of the corpus whole (log $work/stage.log)"
fi
mods=$(awk '$1 == "corpus" { print $2 }' "$staged/corpus-manifest" 2>/dev/null | tr '\n' ' ')
nspec=$(find "$corpus" -name guest.spec | wc -l)
check "the staged corpus has every guest driver of tests/migrate-corpus ($nspec, at least 8: $mods)" \
	eval '[ "$(wc -w <<<"$mods")" -eq "$nspec" ] && [ "$nspec" -ge 8 ]'

# diagnostics LOG - every compiler and modpost diagnostic of a build log, sorted.
diagnostics() {
	grep -E '(warning|error):|^(WARNING|ERROR): ' "$1" | sort -u || true
}

twoarg=$(headers_twoarg)
onearg=$(headers_onearg)
for v in corpus corpus-converted; do
	for tree in twoarg onearg; do
		if [ "$tree" = twoarg ]; then kdir=$twoarg; else kdir=$onearg; fi
		d=$work/build-$v-$tree
		rm -rf "$d"
		cp -r "$staged/$v" "$d"
		sed -i "s#^include /usr/share/cdev-compat/#include $CDEV_TOP/compat/#" "$d/Kbuild"
		st=0
		kbuild "$kdir" "$d" "$d/build.log" || st=$?
		diags=$(diagnostics "$d/build.log")
		for m in $mods; do
			check "$v/$m on the $tree headers: builds with W=1 (status $st; log $d/build.log)" \
				test -f "$d/$m.ko"
		done
		check "$v on the $tree headers: no diagnostic at all ($(wc -l <<<"${diags:-}" | tr -d ' ') lines: $(head -n2 <<<"$diags" | tr '\n' ' '))" \
			test -z "$diags"
	done
done

# checkpatch: the conversion adds no finding to a driver.
src=$(source_files scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)
cp_findings() {
	perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types -f "$1" 2>&1 |
		grep -E ': (ERROR|WARNING|CHECK):' | cut -d: -f3- | sort -u || true
}
for f in "$staged"/corpus-converted/*.[ch]; do
	name=$(basename "$f")
	extra=$(comm -13 <(cp_findings "$staged/corpus/$name") <(cp_findings "$f"))
	check "checkpatch -f $name: the conversion adds no finding${extra:+ ($(head -n2 <<<"$extra" | tr '\n' ' '))}" \
		test -z "$extra"
done
