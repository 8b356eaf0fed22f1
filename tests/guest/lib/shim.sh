# shellcheck shell=bash
# Helpers for the guest tests that drive cdev_shim (tests.d/2x-9x). Source after ktap.sh.

SHIM=cdev_shim
SHIM_TEST=${SHIM_TEST:-/usr/lib/cdev-compat/bin/cdev-shim-test}
PROC_DEVICES=${PROC_DEVICES:-/proc/devices}

# Under TCG every program a test starts costs 50-150 ms (200 ms and more on the debug kernel),
# several times what the kernel work it checks takes; so the helpers below that run often use
# bash builtins only: no pipeline, no awk, sed, sort or comm.

# wait_for SECONDS CMD... - poll CMD every 0.1 s (udev and devtmpfs act asynchronously).
wait_for() {
	local tries=$(($1 * 10))
	shift
	while ! "$@" >/dev/null 2>&1; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# log_since MARK - the kernel log after the last line that holds MARK (a line the test wrote
# to /dev/kmsg). Not ${log##*"$MARK"}: bash matches that in time quadratic in the text after
# MARK, hours under TCG for the megabytes of "kobject: ... (delayed N)" lines that 20,000
# registrations leave on the kernel with late kobject releases.
log_since() {
	dmesg | awk -v m="$1" 'index($0, m) { n = 0; next } { l[++n] = $0 } END { for (i = 1; i <= n; i++) print l[i] }'
}

# chrdevs_read - CHRDEVS: the "Character devices" part of /proc/devices, "major name" each, in
# the kernel's order (by major, then first minor).
chrdevs_read() {
	local major name on=0
	CHRDEVS=()
	while read -r major name; do
		case "$major" in
		Character) on=1 ;;
		Block | "") on=0 ;;
		*) [ "$on" -eq 0 ] || CHRDEVS+=("$major $name") ;;
		esac
	done <"$PROC_DEVICES"
}

# chrdevs - CHRDEVS printed, one line each (what callers keep to compare before and after).
chrdevs() {
	chrdevs_read
	[ ${#CHRDEVS[@]} -eq 0 ] || printf '%s\n' "${CHRDEVS[@]}"
}

# major_of NAME - the first (lowest) major /proc/devices lists for NAME.
major_of() {
	local l
	chrdevs_read
	for l in "${CHRDEVS[@]}"; do
		[ "${l#* }" != "$1" ] || { printf '%s\n' "${l%% *}"; return 0; }
	done
}

# majors_of NAME - every major /proc/devices lists for NAME, blank-separated, ending in a blank.
majors_of() {
	local l out=
	chrdevs_read
	for l in "${CHRDEVS[@]}"; do
		[ "${l#* }" != "$1" ] || out+="${l%% *} "
	done
	printf '%s\n' "$out"
}

# major_lines MAJOR - how many lines /proc/devices has for MAJOR (registrations sharing it).
major_lines() {
	local l n=0
	chrdevs_read
	for l in "${CHRDEVS[@]}"; do
		[ "${l%% *}" != "$1" ] || n=$((n + 1))
	done
	echo "$n"
}

# lines_added OLD NEW - the lines of NEW that OLD does not have, in NEW's order, each ended by
# SEP (default a newline): "comm -13" of unsorted lists.
lines_added() {
	local -A old=()
	local l sep=${3:-$'\n'}
	while IFS= read -r l; do
		[ -z "$l" ] || old[$l]=1
	done <<<"$1"
	while IFS= read -r l; do
		[ -z "$l" ] || [ -n "${old[$l]:-}" ] || printf '%s%s' "$l" "$sep"
	done <<<"$2"
}

# lines_changed OLD NEW - "-LINE;" for each line only OLD has, "+LINE;" for each only NEW has.
lines_changed() {
	local l
	while IFS= read -r l; do
		[ -z "$l" ] || printf -- '-%s;' "$l"
	done < <(lines_added "$2" "$1")
	while IFS= read -r l; do
		[ -z "$l" ] || printf '+%s;' "$l"
	done < <(lines_added "$1" "$2")
}

shim_loaded() {
	[ -e "/sys/module/$SHIM/refcnt" ]
}

shim_unload() {
	if shim_loaded; then
		rmmod "$SHIM"
	fi
}

# shim_load [PARAM=VALUE...] - load the module and wait for its control node.
shim_load() {
	shim_unload || return 1
	modprobe "$SHIM" "$@" || return 1
	wait_for 5 test -c /dev/cdev_shim_ctl
}

# free_major FROM TO - a major in [FROM, TO] that /proc/devices does not list.
free_major() {
	local m l
	local -A taken=()
	chrdevs_read
	for l in "${CHRDEVS[@]}"; do taken[${l%% *}]=1; done
	for ((m = $1; m <= $2; m++)); do
		[ -n "${taken[$m]:-}" ] || { echo "$m"; return 0; }
	done
	return 1
}

# field KEY LINE - the value of KEY=value in a line of "k=v" words.
field() {
	local w words
	read -r -a words <<<"$2"
	for w in "${words[@]}"; do
		case "$w" in "$1="*) printf '%s\n' "${w#*=}" ;; esac
	done
}

# diag_lines TEXT - each line of TEXT as a KTAP diagnostic ("# " before it).
diag_lines() {
	local l
	while IFS= read -r l; do
		printf '# %s\n' "$l"
	done <<<"$1"
}

# expect NAME WHY CMD... - ok if CMD succeeds, else not ok with WHY as the diagnostic.
expect() {
	local name=$1 why=$2
	shift 2
	if "$@" >/dev/null 2>&1; then ktap_ok "$name"; else ktap_fail "$name" "$why"; fi
}

# kmemleak_split FILE - count kmemleak records: prints "TOTAL KNOWN OTHER", where KNOWN are
# leaks of a kernel bug outside cdev-compat: Linux 6.1's __class_register() frees its
# subsys_private without the kobject name it set when kset_register() fails (an injected
# failure inside class_create()), so the name string leaks. Every other record counts.
kmemleak_split() {
	awk '/^unreferenced object/ { if (n) tally(); n++; known = 0; next }
		/__class_register/ { cr = 1 } /kobject_set_name/ { ks = 1 }
		function tally() { if (cr && ks) k++; else o++; cr = ks = 0 }
		END { if (n) tally(); printf "%d %d %d\n", n, k, o }' "$1"
}
