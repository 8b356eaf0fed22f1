# shellcheck shell=bash
# Progress lines of a matrix run: "matrix: [  12.3s] ..." from the start of the run (T_RUN),
# phases with their times (PHASES, printed by the report), one line per kernel step.

PHASES=()

# now_s - seconds since the run started, one decimal.
now_s() { elapsed "$T_RUN"; }

say() { printf 'matrix: [%6ss] %s\n' "$(now_s)" "$*"; }

phase() {
	PHASE_T0=$(date +%s.%N)
	say "phase $1 ..."
}

phase_done() {
	local s
	s=$(elapsed "$PHASE_T0")
	PHASES+=("$1=$s")
	say "phase $1 done in ${s}s"
}

# step KERNEL STEP MESSAGE - one progress line, with STEP_SECS (the step's time) appended.
step() {
	local k=$1 st=$2
	shift 2
	say "$k: $st: $* (${STEP_SECS:-0}s)"
}
