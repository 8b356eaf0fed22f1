#!/bin/bash
# Scenario tests of cdev-compat-dkms in throwaway Debian bookworm roots; prints TAP, one line per
# scenario with its elapsed time, and exits non-zero if any scenario fails.
#
# Never touches this machine's kernel: dkms runs inside chroots, for the 6.1 and 6.12 kernels
# whose headers are installed there, with CAP_SYS_MODULE dropped (see chroot.sh).
#
# Usage: tests/package/run.sh          (as root; installs debootstrap etc. when missing)
# Env:   CDEV_DEB=<path>  test this .deb instead of building one from the tree
#        JOBS=<n>         scenarios run at a time (default 2)
#        KEEP=1           keep the scenario roots' upper dirs under build/package-tests
#        ONLY="t_a t_b"   run only these scenarios (and the ones they need first)
set -euo pipefail
# shellcheck disable=SC1091
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib.sh"
# shellcheck source=tests/package/chroot.sh
. "$CDEV_TOP/tests/package/chroot.sh"
# shellcheck source=tests/package/scenarios.sh
. "$CDEV_TOP/tests/package/scenarios.sh"
# matrix_deb_content_sha: what the images are keyed on (t_matrix compares the rebuilt packages by it)
# shellcheck source=tests/matrix/lib/inputs.sh
. "$CDEV_TOP/tests/matrix/lib/inputs.sh"

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot, overlay mounts)"
need_pkgs debootstrap:debootstrap setpriv:util-linux flock:util-linux mount:mount \
	dpkg-buildpackage:dpkg-dev dh:debhelper dh_dkms:dh-dkms lintian:lintian

RUN_DIR=$BUILD_DIR/package-tests
export RUN_DIR

# ONLY: keep the named scenarios and, transitively, the scenarios they need first.
if [ -n "${ONLY:-}" ]; then
	declare -A want=()
	todo=$ONLY
	while read -r name todo <<<"$todo" && [ -n "$name" ]; do
		[ -z "${want[$name]:-}" ] || continue
		entry=''
		for s in "${SCENARIOS[@]}"; do [ "${s%%|*}" != "$name" ] || entry=$s; done
		[ -n "$entry" ] || die "ONLY: no scenario '$name' (see SCENARIOS in tests/package/scenarios.sh)"
		want[$name]=1
		deps=${entry#*|}
		todo="$todo ${deps%%|*}"
	done
	kept=()
	for s in "${SCENARIOS[@]}"; do [ -z "${want[${s%%|*}]:-}" ] || kept+=("$s"); done
	SCENARIOS=("${kept[@]}")
fi

cleanup() {
	[ -z "${PROGRESS_PID:-}" ] || kill "$PROGRESS_PID" 2>/dev/null || true
	root_umount_all
	umount_below "$RUN_DIR"
	[ "${KEEP:-0}" = 1 ] || rm -rf "$RUN_DIR"/[0-9]*/upper "$RUN_DIR"/[0-9]*/work
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One run at a time per tree (the roots live under build/).
mkdir -p "$BUILD_DIR"
exec {RUN_LOCK}>"$BUILD_DIR/.package-tests.lock"
flock -n "$RUN_LOCK" || { log "another run holds $BUILD_DIR/.package-tests.lock; waiting"; flock "$RUN_LOCK"; }

umount_below "$RUN_DIR"
rm -rf "$RUN_DIR"
mkdir -p "$RUN_DIR/logs" "$RUN_DIR/debs"

FAILED=0 TOTAL_START=$(date +%s.%N) JOBS=${JOBS:-2}

# scenario_job I - run scenario I in a subshell (its mounts are undone when it exits), output
# into its log; leaves "status elapsed" in $RUN_DIR/logs/I.rc.
scenario_job() {
	local i=$1 fn start rc
	fn=${SCENARIOS[i]%%|*}
	start=$(date +%s.%N)
	set +e
	(
		set -e
		SCEN=$(printf '%02d' "$((i + 1))")-$fn
		trap root_umount_all EXIT
		"$fn"
	) >"$RUN_DIR/logs/$(printf '%02d' "$((i + 1))")-$fn.log" 2>&1 </dev/null
	rc=$?
	set -e
	printf '%s %s\n' "$rc" "$(elapsed "$start")" >"$RUN_DIR/logs/$i.rc"
}

# tap_line I - the TAP line of finished scenario I (and its log's tail when it failed).
tap_line() {
	local i=$1 fn desc rc el logf
	fn=${SCENARIOS[i]%%|*}
	desc=${SCENARIOS[i]##*|}
	logf=$RUN_DIR/logs/$(printf '%02d' "$((i + 1))")-$fn.log
	read -r rc el <"$RUN_DIR/logs/$i.rc"
	if [ "$rc" -eq 0 ]; then
		printf 'ok %d - %s (%ss)\n' "$((i + 1))" "$desc" "$el"
	else
		printf 'not ok %d - %s (%ss)\n' "$((i + 1))" "$desc" "$el"
		FAILED=$((FAILED + 1))
		tail -n 25 "$logf" | sed 's/^/#   /'
		printf '#   full log: %s\n' "$logf"
	fi
}

# deps_done I - every scenario that scenario I needs has finished (passed or not).
declare -A FINISHED=()
deps_done() {
	local d deps=${SCENARIOS[$1]#*|}
	deps=${deps%%|*}
	for d in $deps; do
		[ -n "${FINISHED[$d]:-}" ] || return 1
	done
}

# Run up to JOBS scenarios at a time (most time goes to dkms' polling, depmod and dpkg, not to
# the CPU), each as soon as what it needs has finished; print the TAP lines in order.
n=${#SCENARIOS[@]}
declare -A STARTED=() PID_OF=()
printed=0 running=0
printf '1..%d\n' "$n"
printf '# scenario logs: %s/logs/NN-<scenario>.log\n' "$RUN_DIR"
# Progress: every ${PROGRESS_INTERVAL:-60} s (ticker, scripts/lib.sh), each running scenario,
# its time and its log's last line (a cold chroot build alone takes minutes).
t0=$(date +%s)
progress_running() {
	local f i
	for f in "$RUN_DIR"/logs/[0-9][0-9]-*.log; do
		[ -e "$f" ] || continue
		i=${f##*/}
		i=$((10#${i%%-*} - 1))
		[ ! -e "$RUN_DIR/logs/$i.rc" ] || continue
		printf '# running %s (%s since the start; log %s): %s\n' "$(basename "$f" .log)" \
			"$(fmt_secs $(($(date +%s) - t0)))" "$f" "$(tail -n1 "$f" | cut -c1-100)"
	done
}
ticker progress_running
PROGRESS_PID=$!
while [ "$printed" -lt "$n" ]; do
	for ((i = 0; i < n && running < JOBS; i++)); do
		if [ -n "${STARTED[$i]:-}" ] || ! deps_done "$i"; then continue; fi
		STARTED[$i]=1
		scenario_job "$i" &
		PID_OF[$!]=$i
		running=$((running + 1))
	done
	if [ "$running" -gt 0 ]; then
		fin=''
		wait -n -p fin || true
		if [ -z "$fin" ] || [ -z "${PID_OF[$fin]:-}" ]; then continue; fi
		i=${PID_OF[$fin]}
		FINISHED[${SCENARIOS[i]%%|*}]=1
		running=$((running - 1))
	fi
	while [ "$printed" -lt "$n" ] && [ -f "$RUN_DIR/logs/$printed.rc" ]; do
		tap_line "$printed"
		printed=$((printed + 1))
	done
done
kill "$PROGRESS_PID" 2>/dev/null || true
wait "$PROGRESS_PID" 2>/dev/null || true
if [ -s "$RUN_DIR/build-times" ]; then sed 's/^/# /' "$RUN_DIR/build-times"; fi
printf '# %d scenario(s), %d failed, %ss in all (%s at a time)\n' "$n" "$FAILED" "$(elapsed "$TOTAL_START")" "$JOBS"
[ "$FAILED" -eq 0 ]
