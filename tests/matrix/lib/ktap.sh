# shellcheck shell=bash
# Reading the guests' KTAP on the host.
#   ktap_tsv FILE  leaf results (for JUnit and the counts)
#   ktap_top FILE  top-level results (for the required tests and the vendor cells)

# ktap_tsv FILE - leaf results as "result<TAB>test<TAB>subtest<TAB>diagnostics"; probe lines as
# "probe<TAB>key=value ..."; the runner's other "# cdev-" lines are not diagnostics. A parent
# without subtests is its own leaf; a failed parent whose subtests all passed adds one failed
# leaf.
ktap_tsv() {
	awk '
	{ sub(/\r$/, "") }
	function res(line) { return (line ~ /^not ok/) ? "fail" : "pass" }
	function name(line) { sub(/^(not )?ok [0-9]+ ?/, "", line); sub(/ # SKIP.*/, "", line); return line }
	function adddiag(d) { diag = (diag == "") ? d : diag "; " d }
	/^# cdev-compat-probe: / { sub(/^# cdev-compat-probe: /, ""); print "probe\t" $0; next }
	/^# cdev-/ { next }
	/^    (not )?ok [0-9]+/ {
		l = substr($0, 5); n++
		r[n] = res(l); if (l ~ / # SKIP/) r[n] = "skip"
		s[n] = name(l); dg[n] = diag; diag = ""; next
	}
	/^    # / { adddiag(substr($0, 7)); next }
	/^(not )?ok [0-9]+/ {
		pr = res($0); pn = name($0); anyfail = 0
		for (i = 1; i <= n; i++) {
			print r[i] "\t" pn "\t" s[i] "\t" dg[i]
			if (r[i] == "fail") anyfail = 1
		}
		if (n == 0 || (pr == "fail" && !anyfail)) print pr "\t" pn "\t" (n ? "exit_status" : "") "\t" diag
		n = 0; diag = ""; next
	}
	/^# / { adddiag(substr($0, 3)) }
	' "$1"
}

# ktap_top FILE - one line per top-level test: "name<TAB>result<TAB>first error line", result
# pass, fail or skip. A test is skipped when its line has a SKIP directive or all of its
# subtests were skipped. The error line of a failed test is the diagnostic right before its
# first failed subtest (ktap_fail and the vendor runner print the reason there, after any
# context), or that subtest's name, else the diagnostic right before its own result line; of
# a skipped one, the SKIP reason.
ktap_top() {
	awk '
	{ sub(/\r$/, "") }
	function name(line) { sub(/^(not )?ok [0-9]+ ?/, "", line); sub(/ # SKIP.*/, "", line); return line }
	/^    (not )?ok [0-9]+/ {
		n++; if ($0 ~ / # SKIP/) ns++
		if ($0 ~ /^    not ok/ && fd == "") fd = (pend != "") ? pend : "not ok: " name(substr($0, 5))
		pend = ""; next
	}
	/^    # / { pend = substr($0, 7); next }
	/^(not )?ok [0-9]+/ {
		r = ($0 ~ /^not ok/) ? "fail" : "pass"
		if (r == "pass" && ($0 ~ / # SKIP/ || (n > 0 && ns == n))) r = "skip"
		d = ""
		if (r == "fail") d = (fd != "") ? fd : pend
		if (r == "skip" && match($0, / # SKIP ?/)) d = substr($0, RSTART + RLENGTH)
		print name($0) "\t" r "\t" d
		n = 0; ns = 0; fd = ""; pend = ""; next
	}
	/^# cdev-/ { next }
	/^# / { pend = substr($0, 3) }
	' "$1"
}

# ktap_required_check TOPFILE TESTS... - against ktap_top output, the required tests' state: prints
# "ran passed failed skipped missing" counts, then one "test: state" line per test not passed.
ktap_required_check() {
	local top=$1 t r p=0 f=0 s=0 m=0 bad=()
	shift
	for t in "$@"; do
		r=$(awk -F'\t' -v t="$t" '$1 == t { print $2; exit }' "$top")
		case "$r" in
		pass) p=$((p + 1)) ;;
		fail) f=$((f + 1)) bad+=("$t: failed: $(awk -F'\t' -v t="$t" '$1 == t { print $3; exit }' "$top" | cut -c1-160)") ;;
		skip) s=$((s + 1)) bad+=("$t: skipped") ;;
		*) m=$((m + 1)) bad+=("$t: missing") ;;
		esac
	done
	printf '%d %d %d %d %d\n' $((p + f + s)) "$p" "$f" "$s" "$m"
	[ ${#bad[@]} -eq 0 ] || printf '%s\n' "${bad[@]}"
}
