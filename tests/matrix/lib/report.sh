# shellcheck shell=bash
# The table: one row per kernel from build/matrix/<kernel>/result.env, printed and written to
# build/matrix/summary.txt (text) and build/matrix/summary.md (Markdown, for a CI job summary);
# then JUnit (junit.sh). Returns non-zero when any row failed.
#   suite   kernel, version, arity, required tests, passed/failed/skipped subtests, missing,
#           boot and total seconds; below, why each failed row failed
#   vendor  kernel x build (warnings) / load / test / unload / log, boot seconds; below, the
#           first error line of each failed cell

# report_cell_text C - a vendor cell for the table: ok, FAIL, HANG, skip, -; the build with warnings.
report_cell_text() {
	local v=CELL_$1 s
	case "${!v}" in
	ok) s=ok ;;
	fail) s=FAIL ;;
	hang) s=HANG ;;
	*) s=${!v} ;;
	esac
	[ "$1" != build ] || [ -z "$WARNINGS" ] || s="$s ($WARNINGS warn)"
	printf '%s\n' "$s"
}

# report_kernel_width K... - the kernel column's width: the longest name of K..., at least 14.
report_kernel_width() {
	local k w=14
	for k in "$@"; do [ "${#k}" -le "$w" ] || w=${#k}; done
	printf '%s\n' "$w"
}

# report_rule WIDTH REST - the line under a table's head: WIDTH+1 dashes, then REST.
report_rule() {
	printf '%s%s\n' "$(printf "%$(($1 + 1))s" '' | tr ' ' -)" "$2"
}

# shellcheck disable=SC2016 # (a backquote, not an expansion)
report_md_escape() { sed -e 's/|/\\|/g' -e 's/`/\\`/g' <<<"$1"; }

# report_suite K... - the suite run's table of kernels K..., its summary.md, REPORT_COUNTS.
report_suite() {
	local k tp=0 tf=0 kp=0 kf=0 nreq f n w
	w=$(report_kernel_width "$@")
	printf '\n%-*s | %-36s | %-5s | %-8s | %-18s | %-7s | %7s | %7s | %s\n' "$w" kernel version arity required \
		"subtests p/f/s" missing "boot s" "total s" result
	report_rule "$w" "|--------------------------------------|-------|----------|--------------------|---------|---------|---------|-------"
	{
		printf '| kernel | version | arity | required tests | passed / failed / skipped | missing | boot s | result |\n'
		printf '|---|---|---|---|---|---|---|---|\n'
	} >"$MATRIX_DIR/summary.md"
	for k in "$@"; do
		matrix_result_load "$k" "$MATRIX_DIR/$k"
		nreq=$(wc -w <<<"$R_REQUIRED")
		printf '%-*s | %-36s | %-5s | %-8s | %-18s | %-7s | %7s | %7s | %s\n' "$w" "$k" "${R_VERSION:0:36}" "$R_ARITY" \
			"$nreq" "$R_PASSED / $R_FAILED / $R_SKIPPED" "$R_MISSING" "$R_BOOT_S" "$R_TOTAL_S" "$R_STATUS"
		printf '| %s | %s | %s | %s | %s / %s / %s | %s | %s | %s |\n' "$k" "$(report_md_escape "$R_VERSION")" "$R_ARITY" \
			"$(report_md_escape "$R_REQUIRED")" "$R_PASSED" "$R_FAILED" "$R_SKIPPED" "$R_MISSING" "$R_BOOT_S" \
			"$(report_md_escape "$R_STATUS${R_MSG:+: $R_MSG}")" >>"$MATRIX_DIR/summary.md"
		# A required test skipped or missing counts as a failure, and a row that failed without
		# any (a hang, no exit status) counts one.
		f=$(grep -oE ': (skipped|missing)' <<<"$R_NOTPASSED" | wc -l || true)
		n=$(grep -c '^fail' "$MATRIX_DIR/$k/results.tsv" 2>/dev/null) || true
		f=$((f + ${n:-0}))
		[ "$R_STATUS" = pass ] || [ "$f" -gt 0 ] || f=1
		tp=$((tp + R_PASSED))
		tf=$((tf + f))
		if [ "$R_STATUS" = pass ]; then kp=$((kp + 1)); else kf=$((kf + 1)); fi
	done
	echo
	for k in "$@"; do
		matrix_result_load "$k" "$MATRIX_DIR/$k"
		printf '%s: required (%s, %s init): %s\n' "$k" "$SUITE" "${R_INIT:-?}" "$R_REQUIRED"
		[ "$R_STATUS" = pass ] || printf '%s: %s: %s\n' "$k" "$R_STATUS" "$R_MSG" | awk 'NR <= 14'
		[ -z "$R_RETRY" ] || printf '%s: booted twice: %s\n' "$k" "$R_RETRY"
	done
	REPORT_COUNTS="$kp $kf $tp $tf"
}

# report_vendor K... - the vendor run's table of kernels K..., its summary.md, REPORT_COUNTS.
report_vendor() {
	local k c kp=0 kf=0 tp=0 tf=0 m v row cellfail w
	w=$(report_kernel_width "$@")
	printf '\nmodule %s%s\n' "$VENDOR_DIR" "${VENDOR_TEST:+, test $VENDOR_TEST}"
	printf '%-*s | %-28s | %-16s | %-5s | %-5s | %-6s | %-5s | %7s\n' "$w" kernel version build load test unload log "boot s"
	report_rule "$w" "|------------------------------|------------------|-------|-------|--------|-------|--------"
	{
		# shellcheck disable=SC2016
		printf 'Module `%s`%s\n\n' "$(report_md_escape "${VENDOR_DIR#"$CDEV_TOP"/}")" \
			"${VENDOR_TEST:+, test \`$(report_md_escape "${VENDOR_TEST#"$CDEV_TOP"/}")\`}"
		printf '| kernel | version | build (warnings) | load | test | unload | log | boot s |\n'
		printf '|---|---|---|---|---|---|---|---|\n'
	} >"$MATRIX_DIR/summary.md"
	for k in "$@"; do
		matrix_result_load "$k" "$MATRIX_DIR/$k"
		printf '%-*s | %-28s | %-16s | %-5s | %-5s | %-6s | %-5s | %7s\n' "$w" "$k" "${R_VERSION%% *}" \
			"$(report_cell_text build)" "$(report_cell_text load)" "$(report_cell_text test)" "$(report_cell_text unload)" \
			"$(report_cell_text log)" "$R_BOOT_S"
		row="| $k | ${R_VERSION%% *} |"
		cellfail=0
		for c in $CELLS; do
			v=CELL_$c m=MSG_$c
			row+=" $(report_cell_text "$c")"
			case "${!v}" in ok | skip | -) ;; *) row+=": $(report_md_escape "${!m:0:200}")" ;; esac
			row+=" |"
			case "${!v}" in ok) tp=$((tp + 1)) ;; fail | hang) tf=$((tf + 1)) cellfail=1 ;; esac
		done
		# a row that failed with no failed cell (its run broke) still counts as a failure
		[ "$R_STATUS" = pass ] || [ "$cellfail" -eq 1 ] || tf=$((tf + 1))
		printf '%s %s |\n' "$row" "$R_BOOT_S" >>"$MATRIX_DIR/summary.md"
		if [ "$R_STATUS" = pass ]; then kp=$((kp + 1)); else kf=$((kf + 1)); fi
	done
	echo
	for k in "$@"; do
		matrix_result_load "$k" "$MATRIX_DIR/$k"
		cellfail=0
		for c in $CELLS; do
			v=CELL_$c m=MSG_$c
			case "${!v}" in
			ok | skip | -) ;;
			*)
				printf '%s %s: %s\n' "$k" "$c" "${!m:-(no message)}" | cut -c1-240
				cellfail=1
				;;
			esac
		done
		[ "$R_STATUS" = pass ] || [ "$cellfail" -eq 1 ] || printf '%s: %s: %s\n' "$k" "$R_STATUS" "$R_MSG" | cut -c1-240
		[ -z "$R_RETRY" ] || printf '%s: booted twice: %s\n' "$k" "$R_RETRY"
	done
	printf 'logs: %s/<kernel>/ (build.log, console.log, ktap.txt)\n' "$MATRIX_DIR"
	REPORT_COUNTS="$kp $kf $tp $tf"
}

# matrix_report K... - the run's report of kernels K...: the table (also summary.txt and
# summary.md), phases and sums, JUnit and JSON; fails when a kernel failed.
matrix_report() {
	local kp kf tp tf p k
	{
		if [ "$MODE" = suite ]; then report_suite "$@"; else report_vendor "$@"; fi
		read -r kp kf tp tf <<<"$REPORT_COUNTS"
		printf 'phases:'
		for p in "${PHASES[@]}"; do printf ' %ss' "${p/=/ }"; done
		printf ' (total %ss)\n' "$(matrix_now_s)"
		# Sums over kernels; boots overlap image builds, so they exceed the "kernels" phase.
		for k in "$@"; do
			matrix_result_load "$k" "$MATRIX_DIR/$k"
			if [ "$R_IMAGE_CACHED" = no ]; then
				printf 'built %s %s\n' "$k" "$R_IMAGE_S"
			elif [ "$R_IMAGE_CACHED" = yes ]; then
				printf 'cached %s 0\n' "$k"
			fi
			[ "$R_BOOT_S" = - ] || printf 'boot %s %s\n' "$k" "$R_BOOT_S"
		done | awk '$1 == "built" { nb++; ib += $3 } $1 == "cached" { nc++ } $1 == "boot" { n++; b += $3 }
			END { printf "images: %d built in %.1fs, %d cached; boots: %d, %.1fs in all\n", nb, ib, nc, n, b }'
		printf 'junit: %s\n' "$MATRIX_DIR/junit.xml"
		printf 'json: %s\n' "$MATRIX_DIR/results.json"
		printf 'kernels: %d passed, %d failed\n' "$kp" "$kf"
		printf '%d passed, %d failed\n' "$tp" "$tf"
	} | tee "$MATRIX_DIR/summary.txt"
	printf '\n%s\n' "$(tail -n 3 "$MATRIX_DIR/summary.txt" | head -n 2)" >>"$MATRIX_DIR/summary.md"
	matrix_junit "$@"
	matrix_json "$@"
	read -r kp kf tp tf <<<"$(tail -n 2 "$MATRIX_DIR/summary.txt" | head -n1 | awk '{ print $2, $4 }') 0 0"
	[ "$kf" -eq 0 ]
}
