# shellcheck shell=bash
# build/matrix/results.json: the run for a program to read. Schema "cdev-compat-matrix/1"
# (docs/vendors.md, "Results"): the run's mode, module and test, and "records", one per kernel
# and cell. A vendor run's cells are build, load, test, unload and log (the kernel log); a
# suite run has one cell per kernel, "suite", with its subtest counts. Each record: kernel,
# version, cell, status (ok, fail, hang, skip, not-run), message (the first error line), and
# logs (the paths of the files that show it).
MATRIX_JSON_SCHEMA=cdev-compat-matrix/1

# matrix_json_str TEXT - TEXT as a JSON string, quotes included (bash only).
matrix_json_str() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\t'/\\t}
	s=${s//$'\r'/\\r}
	s=${s//$'\n'/\\n}
	printf '"%s"' "${s//[$'\001'-$'\037']/}"
}

# matrix_json_status STATE - a cell or row state as the schema names it.
matrix_json_status() {
	case "$1" in
	ok | pass) echo ok ;;
	fail | error) echo fail ;;
	hang) echo hang ;;
	skip) echo skip ;;
	*) echo not-run ;;
	esac
}

# matrix_json_record K CELL STATUS MESSAGE LOG... - one record, without a trailing comma.
matrix_json_record() {
	local k=$1 cell=$2 status=$3 msg=$4 sep='' l
	shift 4
	printf '    {"kernel": %s, "version": %s, "cell": %s, "status": %s, "message": %s, "logs": [' \
		"$(matrix_json_str "$k")" "$(matrix_json_str "${R_VERSION%% *}")" "$(matrix_json_str "$cell")" \
		"$(matrix_json_str "$status")" "$(matrix_json_str "$msg")"
	for l in "$@"; do
		printf '%s%s' "$sep" "$(matrix_json_str "$l")"
		sep=', '
	done
	printf ']'
}

# matrix_json K... - write MATRIX_DIR/results.json for kernels K (their result.env).
matrix_json() {
	local k c v m sep='' kdir
	{
		printf '{\n  "schema": %s,\n  "mode": %s,\n' "$(matrix_json_str "$MATRIX_JSON_SCHEMA")" \
			"$(matrix_json_str "$MODE")"
		if [ "$MODE" = suite ]; then
			printf '  "suite": %s,\n' "$(matrix_json_str "$SUITE")"
		else
			printf '  "module": %s,\n  "test": %s,\n' "$(matrix_json_str "${VENDOR_DIR:-}")" \
				"$(matrix_json_str "${VENDOR_TEST:-}")"
		fi
		printf '  "records": [\n'
		for k in "$@"; do
			kdir=$MATRIX_DIR/$k
			matrix_result_load "$k" "$kdir"
			if [ "$MODE" = suite ]; then
				printf '%s' "$sep"
				matrix_json_record "$k" suite "$(matrix_json_status "$R_STATUS")" \
					"$([ "$R_STATUS" = pass ] || printf '%s' "$R_MSG")" "$kdir/console.log" "$kdir/ktap.txt"
				printf ', "passed": %d, "failed": %d, "skipped": %d}' "$R_PASSED" "$R_FAILED" "$R_SKIPPED"
				sep=$',\n'
				continue
			fi
			for c in $CELLS; do
				v=CELL_$c m=MSG_$c
				printf '%s' "$sep"
				if [ "$c" = build ]; then
					matrix_json_record "$k" "$c" "$(matrix_json_status "${!v}")" "${!m}" "$kdir/build.log"
					printf ', "warnings": %d}' "${WARNINGS:-0}"
				else
					matrix_json_record "$k" "$c" "$(matrix_json_status "${!v}")" "${!m}" "$kdir/console.log" "$kdir/ktap.txt"
					printf '}'
				fi
				sep=$',\n'
			done
		done
		printf '\n  ]\n}\n'
	} >"$MATRIX_DIR/results.json"
}
