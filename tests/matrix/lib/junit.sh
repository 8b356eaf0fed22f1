# shellcheck shell=bash
# build/matrix/junit.xml: one <testsuite> per kernel. Suite runs: every KTAP leaf a testcase,
# plus a failed "required: TEST" testcase for each required test skipped or missing, and a
# "boot" testcase when the guest gave no usable result. Vendor runs: the five cells as
# testcases (classname matrix.<kernel>.vendor), plus the test's own KTAP subtests.

# junit_xml_escape TEXT - TEXT with &, <, > and " as XML entities (bash only: it runs twice per
# result, some 2,700 times a matrix run; with sed that took 4 s).
junit_xml_escape() {
	local s=${1//&/\&amp;}
	s=${s//</\&lt;}
	s=${s//>/\&gt;}
	printf '%s\n' "${s//\"/\&quot;}"
}

# junit_leaves K TEST - the KTAP leaves of K (of TEST only, when given) as testcases.
junit_leaves() {
	local k=$1 prefix=$2 r t s d
	while IFS=$'\t' read -r r t s d; do
		case "$r" in pass | fail | skip) ;; *) continue ;; esac
		[ -z "$prefix" ] || [ "$t" = "$prefix" ] || continue
		printf '    <testcase classname="matrix.%s.%s" name="%s"' "$k" "$(junit_xml_escape "$t")" "$(junit_xml_escape "${s:-$t}")"
		case "$r" in
		pass) echo '/>' ;;
		skip) echo '><skipped/></testcase>' ;;
		fail) printf '><failure message="%s"/></testcase>\n' "$(junit_xml_escape "${d:-failed} (console: $R_DIR/console.log)")" ;;
		esac
	done <"$MATRIX_DIR/$k/results.tsv"
}

junit_case() {
	local k=$1 name=$2 state=$3 msg=$4
	printf '    <testcase classname="matrix.%s" name="%s"' "$k" "$(junit_xml_escape "$name")"
	case "$state" in
	ok | pass) echo '/>' ;;
	skip | -) echo '><skipped/></testcase>' ;;
	*) printf '><failure message="%s"/></testcase>\n' "$(junit_xml_escape "$state: $msg")" ;;
	esac
}

# matrix_junit K... - MATRIX_DIR/junit.xml: one testsuite per kernel of K..., one testcase per
# subtest (suite) or cell (vendor).
matrix_junit() {
	local out=$MATRIX_DIR/junit.xml k body c v m line
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<testsuites name="cdev-compat matrix">'
		for k in "$@"; do
			matrix_result_load "$k" "$MATRIX_DIR/$k"
			[ -f "$MATRIX_DIR/$k/results.tsv" ] || : >"$MATRIX_DIR/$k/results.tsv"
			body=$(
				if [ "$MODE" = suite ]; then
					junit_leaves "$k" ''
					while IFS= read -r line; do
						case "$line" in *": skipped" | *": missing") junit_case "$k" "required: ${line%%:*}" fail "${line#*: }" ;; esac
					done <<<"${R_NOTPASSED//; /$'\n'}"
					if [ "$R_STATUS" != pass ] && ! grep -q '^fail' "$MATRIX_DIR/$k/results.tsv" &&
						[ -z "$R_NOTPASSED" ]; then
						junit_case "$k" boot "$R_STATUS" "$R_MSG"
					fi
				else
					for c in $CELLS; do
						v=CELL_$c m=MSG_$c
						junit_case "$k.vendor" "$c" "${!v}" "${!m}"
					done
					junit_leaves "$k" test | sed 's/classname="matrix\.[^"]*\.test"/classname="matrix.'"$k"'.vendor.test"/'
				fi
			)
			printf '  <testsuite name="%s" tests="%s" failures="%s" skipped="%s" time="%s">\n' "$k" \
				"$(grep -c '<testcase' <<<"$body" || true)" "$(grep -c '<failure' <<<"$body" || true)" \
				"$(grep -c '<skipped' <<<"$body" || true)" "$R_TOTAL_S"
			printf '    <properties><property name="kernel" value="%s"/><property name="arity" value="%s"/></properties>\n' \
				"$(junit_xml_escape "$R_VERSION")" "$(junit_xml_escape "$R_ARITY")"
			[ -z "$body" ] || printf '%s\n' "$body"
			echo '  </testsuite>'
		done
		echo '</testsuites>'
	} >"$out"
}
