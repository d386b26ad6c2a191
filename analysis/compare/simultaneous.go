package compare

// A comparison makes many tests at once: the median and the p95 of every
// scenario, and the overall row. With each interval at 95% and wide
// intervals (few rounds on a noisy machine), about 2.5% of the tests of an
// A/A comparison would land above the regression bound by chance, and
// with 38 scenarios most A/A comparisons would fail. The intervals over
// rounds are therefore simultaneous (weighted Bonferroni): the overall
// row, two tests (median and p95) that a slowdown of the whole server
// moves, gets half of the error 1-C, and the 2k tests of the k scenarios
// share the other half,
// so that all hold together at confidence C and an A/A comparison fails
// with at most 1-C chance whatever the number of scenarios. The bootstrap
// of single rounds is not adjusted: its noise floor, far above the
// within-run noise, is what keeps it from false alarms.

// simultaneousConfidence returns the confidence of each scenario's
// intervals and of the overall row's for all of them to hold at c.
func simultaneousConfidence(c float64, scenarios int, overall bool) (perScenario, overallRow float64) {
	alpha := 1 - c
	if overall {
		overallRow = 1 - alpha/4 // each of its two tests
		alpha /= 2
	}
	if scenarios > 0 {
		perScenario = 1 - alpha/float64(2*scenarios)
	}
	return perScenario, overallRow
}
