# shellcheck shell=bash
# Progress lines of a matrix run: "matrix: [  12.3s] ..." from the start of the run (T_RUN),
# phases with their times (PHASES, printed by the report), one line per kernel step.

PHASES=()

# matrix_now_s - seconds since the run started, one decimal.
matrix_now_s() { elapsed "$T_RUN"; }

matrix_say() { printf 'matrix: [%6ss] %s\n' "$(matrix_now_s)" "$*"; }

matrix_phase() {
	PHASE_T0=$(date +%s.%N)
	matrix_say "phase $1 ..."
}

matrix_phase_done() {
	local s
	s=$(elapsed "$PHASE_T0")
	PHASES+=("$1=$s")
	matrix_say "phase $1 done in ${s}s"
}

# matrix_step KERNEL STEP MESSAGE - one progress line, with STEP_SECS (the step's time) appended.
matrix_step() {
	local k=$1 st=$2
	shift 2
	matrix_say "$k: $st: $* (${STEP_SECS:-0}s)"
}
