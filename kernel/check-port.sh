#!/bin/bash
# Check the port on a base's patched linux-source (slow: not part of `make kernel`).
#
#  1. Re-running the semantic patch on the patched tree changes nothing.
#  2. A grep-level scan (kernel/find-twoarg.sh, blind to #ifdef and macros) finds no two-arg
#     unregister_chrdev() and no four-arg __unregister_chrdev().
#  3. Every .c file the series touches that x86_64 can build compiles under allmodconfig
#     (`make path/to/file.o`); the others (other architectures, ISA) compile for their own
#     platform with Debian's cross compilers; prints how many, and lists any built nowhere.
#
#   kernel/check-port.sh [--base BASE]                all three
#   kernel/check-port.sh [--base BASE] --no-compile   1 and 2 only (a minute or two)
#
# Cache: $CDEV_COMPAT_CACHE/kernel/check/<pkg>-<version>-<series sha>/ (allmodconfig objects, logs).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

base_args "$@"
set -- "${BASE_ARGS_LEFT[@]}"
compile=1
case "${1:-}" in
--no-compile) compile=0 ;;
"") ;;
*) die "usage: ${0##*/} [--base BASE] [--no-compile]" ;;
esac

need_pkgs spatch:coccinelle perl:perl lsdiff:patchutils
need_kbuild_pkgs
ver=$(src_version)
tree=$("$KERNEL_DIR/apply-series.sh" --base "$BASE" | tail -n1)
work=$KCACHE/check/$SRC_PKG-$ver-$(series_sha)
mkdir -p "$work"
fail=0

# 0. Positive control: both checks must flag the old spellings, or their silence proves nothing.
ctl=$work/control
mkdir -p "$ctl"
cat >"$ctl/control.c" <<'EOF_C'
static void f(unsigned int major)
{
	unregister_chrdev(major, "ctl");
	__unregister_chrdev(major, 0, 4,
			    "ctl");
}
EOF_C
spatch --sp-file "$COCCI" -D patch --no-includes --very-quiet "$ctl/control.c" >"$ctl/control.diff" 2>&1 || true
[ "$(grep -c '^-.*unregister_chrdev' "$ctl/control.diff")" -eq 2 ] ||
	die "positive control: the semantic patch did not convert both old calls ($ctl/control.diff)"
[ "$("$KERNEL_DIR/find-twoarg.sh" "$ctl" | wc -l)" -eq 2 ] ||
	die "positive control: find-twoarg.sh did not flag both old calls"
echo "PASS: positive control: semantic patch and grep both flag the two old spellings"

# 1. The semantic patch, again, must find nothing. Only files naming the functions are given
#    to it (as spatch's own prefilter would), so this takes seconds, not minutes.
grep -rlw --include='*.[ch]' -e unregister_chrdev -e __unregister_chrdev "$tree" |
	sed "s|^$tree/||" | sort >"$work/files-naming-it"
(cd "$tree" && xargs -a "$work/files-naming-it" -n1 \
	spatch --sp-file "$COCCI" -D patch --no-includes --include-headers --very-quiet) \
	>"$work/spatch-rerun.diff" 2>"$work/spatch-rerun.log" ||
	die "spatch failed; log: $work/spatch-rerun.log"
if grep -q '^+++ ' "$work/spatch-rerun.diff"; then
	log "FAIL: the semantic patch still changes: $(grep '^+++ ' "$work/spatch-rerun.diff" | cut -c5- | tr '\n' ' ')"
	fail=1
else
	echo "PASS: semantic patch re-run over $(wc -l <"$work/files-naming-it") files naming (__)unregister_chrdev finds nothing"
fi

# 2. The grep agrees.
"$KERNEL_DIR/find-twoarg.sh" "$tree" >"$work/twoarg.txt"
if [ -s "$work/twoarg.txt" ]; then
	log "FAIL: two-arg callers left:"
	cat "$work/twoarg.txt" >&2
	fail=1
else
	echo "PASS: grep finds no two-arg unregister_chrdev() / four-arg __unregister_chrdev()"
fi

[ "$compile" -eq 1 ] || { [ "$fail" -eq 0 ] && echo "check-port: PASS (compile skipped)" && exit 0; exit 1; }

# 3. allmodconfig compile of every touched .c file.
mapfile -t touched < <(series_files | xargs lsdiff --strip=1 | sort -u)
obj=$work/allmod
mkdir -p "$obj"
if [ ! -f "$obj/.prepared" ]; then
	log "allmodconfig + prepare in $obj (once per series)"
	make -s -C "$tree" O="$obj" ARCH=x86_64 allmodconfig
	make -s -C "$tree" O="$obj" ARCH=x86_64 -j"$(nproc)" prepare >"$work/prepare.log" 2>&1 ||
		die "prepare failed; log: $work/prepare.log"
	touch "$obj/.prepared"
fi

# why_not FILE - why x86_64 allmodconfig does not build FILE (empty if it should).
why_not() {
	local f=$1 dir base mk sym val
	case "$f" in
	arch/x86/*) ;;
	arch/*) echo "arch-specific: arch/$(cut -d/ -f2 <<<"$f")/ is only built for ARCH=$(cut -d/ -f2 <<<"$f")"
		return ;;
	esac
	dir=$(dirname "$f")
	base=$(basename "$f" .c)
	mk=$tree/$dir/Makefile
	[ -f "$mk" ] || mk=$tree/$dir/Kbuild
	sym=$(grep -E "^[^#]*obj-\\\$\\(CONFIG_[A-Z0-9_]+\\)[[:space:]]*[+:]?=.*\\b$base\\.o\\b" "$mk" 2>/dev/null |
		grep -oE 'CONFIG_[A-Z0-9_]+' | head -n1 || true)
	if [ -z "$sym" ]; then
		sym=$(grep -E "^[^#]*-(objs|y)[[:space:]]*[+:]?=.*\\b$base\\.o\\b" "$mk" 2>/dev/null | head -n1 |
			sed -E 's/^[[:space:]]*([A-Za-z0-9_]+)-(objs|y).*/\1/' || true)
		[ -n "$sym" ] && sym=$(grep -E "^[^#]*obj-\\\$\\(CONFIG_[A-Z0-9_]+\\)[[:space:]]*[+:]?=.*\\b$sym\\.o\\b" "$mk" |
			grep -oE 'CONFIG_[A-Z0-9_]+' | head -n1 || true)
	fi
	[ -n "$sym" ] || return 0
	val=$(grep -E "^$sym=" "$obj/.config" | cut -d= -f2 || true)
	case "$val" in
	y | m) ;;
	*) echo "$sym is not set under x86_64 allmodconfig ($(depends_of "${sym#CONFIG_}"))" ;;
	esac
}

# depends_of SYM - the "depends on" lines of a Kconfig symbol, joined.
depends_of() {
	grep -rh -A12 --include='Kconfig*' -E "^(menu)?config $1\$" "$tree" |
		awk 'NR>1 && /^(menu)?config /{exit} /^[[:space:]]+depends on/{sub(/^[[:space:]]+depends on[[:space:]]*/,""); printf "%sdepends on %s", sep, $0; sep="; "}'
}

# compile_one TARGET LOG - make TARGET; retried once if the compiler was killed by a signal
# (another job on a busy machine), never on a compile error.
compile_one() {
	local try
	for try in 1 2; do
		# -j1: with -j, a file that is also part of a composite module (aoe.o, pg.o's paride)
		# can be compiled twice at once, once as [M], and the two race on its .d file.
		make -C "$tree" O="$obj" ARCH=x86_64 -j1 "$1" >"$2" 2>&1 && return 0
		grep -qE 'Error 1(37|43)|Killed signal' "$2" || return 1
		log "compiler killed by a signal building $1 (try $try), retrying"
	done
	return 1
}

# A .cmd file left truncated by an interrupted earlier run breaks every make in its directory
# ("missing separator"): the touched files' objects and .cmd files go before any compile.
for f in "${touched[@]}"; do
	[[ $f == *.c ]] || continue
	rm -f "$obj/${f%.c}.o" "$obj/$(dirname "$f")/.$(basename "$f" .c).o.cmd"
done

compiled=0
cannot=()
failed=()
headers=()
for f in "${touched[@]}"; do
	case "$f" in
	*.h) headers+=("$f"); continue ;;
	*.c) ;;
	*) continue ;;
	esac
	reason=$(why_not "$f")
	if [ -n "$reason" ]; then
		cannot+=("$f: $reason")
		continue
	fi
	o=${f%.c}.o
	target=$(kbuild_target "$o")
	if compile_one "$target" "$work/${o//\//_}.log" && [ -f "$obj/$o" ]; then
		compiled=$((compiled + 1))
		echo "  CC ok   $f"
	else
		failed+=("$f (log: $work/${o//\//_}.log)")
		echo "  CC FAIL $f"
	fi
done

# What x86_64 cannot build: compiled for its own platform with Debian's cross compilers (or
# i386 for ISA), one configured object dir per target (scripts/lib.sh cross_target), cached.
declare -A groups=()
rest=()
for c in "${cannot[@]}"; do
	f=${c%%: *}
	t=$(cross_target "$f")
	if [ -n "$t" ]; then groups[$t]+="$f "; else rest+=("$c"); fi
done
cross_ok=0
for t in "${!groups[@]}"; do
	read -r arch _ _ config <<<"$t"
	xobj=$work/cross-$arch-$config
	log "$arch $config for ${groups[$t]}(once per series)"
	cross_configure "$tree" "$xobj" "$t"
	mapfile -t margs < <(cross_make_args "$t")
	for f in ${groups[$t]}; do
		o=${f%.c}.o
		rm -f "$xobj/$o"
		if make -C "$tree" O="$xobj" "${margs[@]}" -j1 "$o" >"$xobj-${o//\//_}.log" 2>&1 &&
			[ -f "$xobj/$o" ]; then
			cross_ok=$((cross_ok + 1))
			echo "  CC ok   $f ($arch $config)"
		else
			failed+=("$f ($arch $config; log: $xobj-${o//\//_}.log)")
			echo "  CC FAIL $f ($arch $config)"
		fi
	done
done

echo "compiled under x86_64 allmodconfig: $compiled of ${#touched[@]} touched files" \
	"(${#headers[@]} header(s) compiled through them: ${headers[*]})"
echo "compiled for their own platform with cross compilers: $cross_ok"
echo "built nowhere: ${#rest[@]}"
for c in "${rest[@]}"; do echo "  $c"; done
if [ ${#failed[@]} -gt 0 ]; then
	echo "FAILED to compile ${#failed[@]}:"
	for c in "${failed[@]}"; do echo "  $c"; done
	fail=1
fi
if [ "$fail" -eq 0 ]; then
	echo "check-port: PASS"
else
	echo "check-port: FAIL"
	exit 1
fi
