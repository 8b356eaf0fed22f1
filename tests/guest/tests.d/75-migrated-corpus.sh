#!/bin/bash
# The migration corpus (issue 14): the legacy-driver shapes of tests/migrate-corpus/, written
# for the test, built into the image twice by tests/legacy/ (stage-corpus.sh,
# build-drivers.sh): "corpus", as written, with the compat header force-included, and
# "corpus-converted", as cdev-compat-migrate --cdev converted them. Each driver's spec
# (MODULE.spec) says what it must do. For each variant, driver and "load" line of its spec:
#   builds       the image build made MODULE.ko;
#   loads        insmod with the line's parameters (@free: a free major, asked for as a fixed
#                one) as an out-of-tree module;
#   registers    /proc/devices gains exactly the spec's chrdev names (and the fixed major);
#   opens        every "read NAME MINOR TEXT" node (made here with the major /proc/devices
#                gives NAME) opens and reads back TEXT; every "noopen NAME MINOR" node fails to
#                open; every "node DEV NAME MINOR" the driver made is /dev/DEV with NAME's
#                major and MINOR (the shape of issue 14's failure 1 made them with major 0);
#   unloads      rmmod; /proc/devices is as before; the driver's nodes are gone; every "read"
#                node now fails to open: no cdev left mapped after the unload (the shape of
#                failure 2 left one, a use-after-free on that open).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/ktap.sh disable=SC1091
. "$(dirname "$0")/../lib/ktap.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/shim.sh disable=SC1091
. "$(dirname "$0")/../lib/shim.sh"

LEGACY=${LEGACY:-/usr/lib/cdev-compat/legacy-drivers}
manifest=$LEGACY/corpus-manifest
nodes=/dev/cdev-corpus-test

if [ ! -s "$manifest" ]; then
	! declare -F ktap_plan >/dev/null || ktap_plan 1
	ktap_fail corpus_staged "no $manifest: the image was built without the migration corpus"
	ktap_done
	exit
fi

# The plan, where the runner takes one: 3, then per variant and driver 2 (builds, ran) and 4
# per load line (loads, registers, opens, unloads). A driver that does not build, or a load
# that fails, prints fewer and fails the plan too.
if declare -F ktap_plan >/dev/null; then
	plan=3
	while read -r v m _; do
		loads=$(grep -cE '^load([[:space:]]|$)' "$LEGACY/$v/$m.spec" 2>/dev/null || true)
		plan=$((plan + 2 + 4 * ${loads:-0}))
	done <"$manifest"
	ktap_plan "$plan"
fi
for v in corpus corpus-converted; do
	n=$(awk -v v="$v" '$1 == v' "$manifest" | wc -l)
	expect "corpus_variant_${v//-/_}" "$manifest lists $n drivers of variant $v, want 8 or more" \
		test "$n" -ge 8
done
expect corpus_variants_agree "the two variants list different drivers" \
	test "$(awk '$1 == "corpus" { print $2 }' "$manifest")" = \
	"$(awk '$1 == "corpus-converted" { print $2 }' "$manifest")"

# spec_lines SPEC KEY - the values of SPEC's "KEY ..." lines.
spec_lines() {
	sed -n "s/^$2[[:space:]]\+//p" "$1"
}

# open_line NODE - the first line NODE reads; fails when it does not open.
open_line() {
	timeout 5 head -n1 "$1"
}

# check_opens SPEC - the read, noopen and node lines; output is diagnostics.
check_opens() {
	local spec=$1 name minor text major node rc=0 got dev want
	while read -r name minor text; do
		major=$(major_of "$name")
		[ -n "$major" ] || { echo "read: no $name in /proc/devices"; rc=1; continue; }
		node=$nodes/$name-$minor
		rm -f "$node"
		mknod "$node" c "$major" "$minor" || { rc=1; continue; }
		if ! got=$(open_line "$node" 2>&1); then
			echo "read $node ($major:$minor): $got"
			rc=1
		elif [ "$got" != "$text" ]; then
			echo "read $node ($major:$minor): '$got', want '$text'"
			rc=1
		else
			echo "read $node ($major:$minor): '$got'"
		fi
	done < <(spec_lines "$spec" read)
	while read -r name minor; do
		major=$(major_of "$name")
		node=$nodes/$name-$minor-noopen
		rm -f "$node"
		mknod "$node" c "${major:-0}" "$minor" || { rc=1; continue; }
		if got=$(open_line "$node" 2>&1); then
			echo "noopen $node ($major:$minor): opened, read '$got'"
			rc=1
		else
			echo "noopen $node ($major:$minor): $got"
		fi
		rm -f "$node"
	done < <(spec_lines "$spec" noopen)
	while read -r dev name minor; do
		major=$(major_of "$name")
		if ! wait_for 5 test -c "/dev/$dev"; then
			echo "node /dev/$dev did not appear"
			rc=1
			continue
		fi
		got=$(stat -c '%t:%T' "/dev/$dev")
		want=$(printf '%x:%x' "${major:-0}" "$minor")
		echo "node /dev/$dev: $got (hex), want $want"
		[ "$got" = "$want" ] || rc=1
	done < <(spec_lines "$spec" node)
	return "$rc"
}

# check_unloaded SPEC - the driver's nodes gone, the read nodes no longer open.
check_unloaded() {
	local spec=$1 name minor text dev rc=0 node got
	while read -r dev name minor; do
		wait_for 5 test ! -e "/dev/$dev" || { echo "/dev/$dev is still there"; rc=1; }
	done < <(spec_lines "$spec" node)
	while read -r name minor text; do
		node=$nodes/$name-$minor
		[ -e "$node" ] || continue
		if got=$(open_line "$node" 2>&1); then
			echo "$node opened after the unload and read '$got'"
			rc=1
		else
			echo "$node after the unload: $got"
		fi
		rm -f "$node"
	done < <(spec_lines "$spec" read)
	return "$rc"
}

mkdir -p "$nodes"
for v in corpus corpus-converted; do
	mods=$(awk -v v="$v" '$1 == v && $3 == "corpus" { print $2 }' "$manifest")
	for m in $mods; do
		t=${v//-/_}_$m
		spec=$LEGACY/$v/$m.spec
		status=$(awk -v m="$m" '$1 == m { print $2 }' "$LEGACY/$v/status" 2>/dev/null)
		if [ "$status" != ok ] || [ ! -f "$LEGACY/$v/$m.ko" ] || [ ! -f "$spec" ]; then
			tail -n 30 "$LEGACY/$v/build.log" 2>/dev/null | sed 's/^/# /'
			ktap_fail "${t}_builds" "the image build of $v/$m: ${status:-no status}; spec: $(ls "$spec" 2>&1)"
			continue
		fi
		ktap_ok "${t}_builds"
		want_names=$(spec_lines "$spec" chrdev | tr ' ' '\n' | sort | tr '\n' ' ')
		n=0
		while read -r -a params; do
			n=$((n + 1))
			tl=${t}_load$n
			fixed=
			for i in "${!params[@]}"; do
				if [[ ${params[$i]} == *=@free ]]; then
					fixed=$(free_major 234 254) || { ktap_fail "${tl}_loads" "no free major in 234..254"; continue 2; }
					params[i]=${params[$i]%=@free}=$fixed
				fi
			done
			ktap_diag "$v/$m.ko ${params[*]}"
			before=$(chrdevs)
			if ! out=$(insmod "$LEGACY/$v/$m.ko" "${params[@]}" 2>&1); then
				printf '%s\n' "$out" | sed 's/^/# /'
				dmesg | tail -n 5 | sed 's/^/# /'
				ktap_fail "${tl}_loads" "insmod $v/$m.ko ${params[*]} failed"
				continue
			fi
			taint=$(cat "/sys/module/$m/taint" 2>/dev/null)
			expect "${tl}_loads" "/sys/module/$m/taint is '$taint', want O (out-of-tree)" grep -q O <<<"$taint"
			gained=$(comm -13 <(echo "$before") <(chrdevs))
			got_names=$(awk '{ print $2 }' <<<"$gained" | sort | tr '\n' ' ')
			if [ "$got_names" != "$want_names" ]; then
				ktap_fail "${tl}_registers" "/proc/devices gained '$(tr '\n' ';' <<<"$gained")', want the names '$want_names'"
			elif [ -n "$fixed" ] && ! awk -v f="$fixed" '$1 == f { found = 1 } END { exit !found }' <<<"$gained"; then
				ktap_fail "${tl}_registers" "/proc/devices gained '$(tr '\n' ';' <<<"$gained")', none on the fixed major $fixed"
			else
				ktap_diag "gained $(tr '\n' ';' <<<"$gained")"
				ktap_ok "${tl}_registers"
			fi
			if out=$(check_opens "$spec" 2>&1); then
				printf '%s\n' "$out" | sed 's/^/# /'
				ktap_ok "${tl}_opens"
			else
				printf '%s\n' "$out" | sed 's/^/# /'
				ktap_fail "${tl}_opens"
			fi
			if ! out=$(rmmod "$m" 2>&1); then
				printf '%s\n' "$out" | sed 's/^/# /'
				ktap_fail "${tl}_unloads" "rmmod $m failed"
				continue
			fi
			if [ "$(chrdevs)" != "$before" ]; then
				ktap_fail "${tl}_unloads" "/proc/devices now differs by '$(comm -3 <(echo "$before") <(chrdevs) | tr '\n' ';')'"
			elif out=$(check_unloaded "$spec" 2>&1); then
				printf '%s\n' "$out" | sed 's/^/# /'
				ktap_ok "${tl}_unloads"
			else
				printf '%s\n' "$out" | sed 's/^/# /'
				ktap_fail "${tl}_unloads" "something of $m is left after the unload"
			fi
		done < <(sed -n 's/^load$//p; s/^load[[:space:]]\+//p' "$spec")
		expect "${t}_ran" "$spec has $n load lines run" test "$n" -gt 0
	done
done
rm -rf "$nodes"
ktap_done
