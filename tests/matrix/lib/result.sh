# shellcheck shell=bash
# KDIR/result.env: one kernel's state between the two halves of its run (lib/run-kernel.sh), and
# its row in the report (lib/report.sh, lib/junit.sh, report-from.sh, bench.sh). Its fields are
# named here, once, with the value each has before a run wrote it (MATRIX_RESULT_FIELDS):
#   R_NAME R_DIR      the kernel and its directory (build/matrix/<kernel>)
#   R_STATUS          prepared, then pass, fail, hang or error
#   R_VERSION R_ARITY the booted kernel's version and unregister_chrdev() arity
#   R_PASSED R_FAILED R_SKIPPED  subtest counts; R_REQUIRED R_MISSING R_NOTPASSED: the
#                     required tests, how many gave no result, which did not pass
#   R_BOOT_S R_TOTAL_S R_IMAGE_S R_IMAGE_CACHED R_DKMS_S  seconds, and whether the image came
#                     from the cache
#   R_KRESOLVED       the resolved kernel packages
#   R_MSG             why the row failed
#   R_T0 R_IMG R_INIT R_RETRY  the run's start, image, init, and a retried boot's story
#   WARNINGS BUILD_S  a vendor module's build warnings and seconds
#   CELL_<c> MSG_<c>  each vendor cell's state and first error line, for c in CELLS
# Cell and row states: ok/pass, fail, skip, hang, "-" (not run: an earlier cell failed).

CELLS="build load test unload log"
# NAME=DEFAULT of every field, in result.env's order; the defaults make a failed row, "no
# result (runner error)". R_NAME and R_DIR are the kernel and its directory.
MATRIX_RESULT_FIELDS=(R_NAME= R_STATUS=error "R_VERSION=?" "R_ARITY=?" R_PASSED=0 R_FAILED=1
	R_SKIPPED=0 R_REQUIRED= R_MISSING=0 R_NOTPASSED= R_BOOT_S=- R_TOTAL_S=- R_IMAGE_S=-
	R_IMAGE_CACHED=- R_DKMS_S=- R_KRESOLVED= "R_MSG=no result (runner error)" R_DIR= R_T0= R_IMG=
	R_INIT= R_RETRY= WARNINGS= BUILD_S=)

# matrix_result_reset K KDIR - every field of K's result as it is before its run wrote any.
# shellcheck disable=SC2034 # the fields are read through MATRIX_RESULT_FIELDS and by the report
matrix_result_reset() {
	local c f
	for f in "${MATRIX_RESULT_FIELDS[@]}"; do
		printf -v "${f%%=*}" %s "${f#*=}"
	done
	printf -v R_NAME %s "$1"
	printf -v R_DIR %s "$2"
	for c in $CELLS; do
		printf -v "CELL_$c" %s -
		printf -v "MSG_$c" %s ''
	done
}

# matrix_result_write KDIR - KDIR/result.env from the fields (R_TOTAL_S: now).
# shellcheck disable=SC2034 # R_TOTAL_S: a field, written to result.env below
matrix_result_write() {
	local c v
	R_TOTAL_S=$(elapsed "$R_T0")
	{
		for v in "${MATRIX_RESULT_FIELDS[@]}"; do
			v=${v%%=*}
			printf '%s=%q\n' "$v" "${!v:-}"
		done
		for c in $CELLS; do
			v=CELL_$c
			printf '%s=%q\n' "$v" "${!v:--}"
			v=MSG_$c
			printf '%s=%q\n' "$v" "${!v:-}"
		done
	} >"$1/result.env"
}

# matrix_result_load K KDIR - K's fields from KDIR/result.env; a failed row when there is none,
# or when its run prepared the kernel but never booted it.
# shellcheck disable=SC2034 # R_*: the fields, read by the report
matrix_result_load() {
	matrix_result_reset "$1" "$2"
	# shellcheck disable=SC1091
	[ ! -f "$2/result.env" ] || . "$2/result.env"
	if [ "$R_STATUS" = prepared ]; then
		R_STATUS=error R_FAILED=1 R_MSG="image ready but the boot did not complete (runner error)"
	fi
}
