# bench-summary.awk - summary of 60-bench.sh's rounds: input lines "round<TAB>device<TAB>
# open+close ns<TAB>read1 ns", devices a (native), b (cdev-compat), c (redirect), one fops body.
# Prints each device's median ns/op per metric, then b/a and c/a per round: median, min, max,
# and the target (at most 1.02: the same file operations, registered another way).
# Variables: rounds, ops, kernel.
{ v[$1, $2, "open+close"] = $3; v[$1, $2, "read1"] = $4 }
function med(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	split("open+close read1", ms, " ")
	for (m = 1; m <= 2; m++) {
		line = sprintf("# bench: %s %s ns/op (median of %d x %d):", kernel, ms[m], rounds, ops)
		for (d = 1; d <= 3; d++) {
			k = substr("abc", d, 1)
			for (r = 1; r <= rounds; r++) x[r] = v[r, k, ms[m]]
			line = line sprintf(" %s=%.0f", k, med(x, rounds))
		}
		print line
		for (d = 2; d <= 3; d++) {
			k = substr("abc", d, 1); lo = 1e9; hi = 0
			for (r = 1; r <= rounds; r++) {
				x[r] = v[r, k, ms[m]] / v[r, "a", ms[m]]
				if (x[r] < lo) lo = x[r]; if (x[r] > hi) hi = x[r]
			}
			printf "# bench: %s %s ratio %s/a: median %.3f, min %.3f, max %.3f (target <= 1.02)\n", kernel, ms[m], k, med(x, rounds), lo, hi
		}
	}
}
