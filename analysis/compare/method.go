package compare

import "fmt"

// MethodLabel is the method of a latency verdict as the verdict lines
// print it ("" when there is none).
func MethodLabel(s *ScenarioComparison) string {
	switch s.Method {
	case MethodPaired:
		return "paired t"
	case MethodWelch:
		return "Welch t"
	case MethodBootstrap:
		return fmt.Sprintf("bootstrap, floor %.0f%%", (s.Bound-1)*100)
	}
	return ""
}

// methodText describes the statistics and the rule, for the output.
func (j *Judge) methodText() (method, rule string) {
	o := j.opt
	method = fmt.Sprintf("each run folder is a round (a run in lockstep with the other side's: each of its time slices); per scenario, the candidate/base ratio of the median, p95 and p99 latency of successful executions "+
		"with a %.0f%% interval, by one of: paired t (rounds of the same number on both sides ran next to each other: "+
		"t interval of the mean log ratio of each pair's per-round quantiles), Welch t (two or more rounds on each side: "+
		"Welch t interval of the difference of mean log per-round quantiles), bootstrap (a single round on a side: "+
		"percentile bootstrap of the pooled executions, %d resamples, seed %d, every successful execution as the latency histogram holds it (within 0.1%%), "+
		"which cannot see variation between runs); over rounds, the (all scenarios) row judges the same way the per-round geometric "+
		"means of the medians and of the p95s of the scenarios with an execution in every round",
		o.Confidence*100, o.Resamples, o.Seed)
	if j.judged > 0 {
		method += fmt.Sprintf("; the intervals over rounds are simultaneous, so that an A/A comparison fails with at most %.0f%% chance "+
			"however many scenarios it has (weighted Bonferroni: ", 100-o.Confidence*100)
		if j.overallConfidence > 0 {
			method += fmt.Sprintf("the overall row's median and p95 at %.4g%%, ", j.overallConfidence*100)
		}
		method += fmt.Sprintf("the median and p95 of each of the %d scenarios judged over rounds at %.4g%%)", j.judged, j.roundsConfidence*100)
	}
	if o.Noise != nil {
		method += fmt.Sprintf("; calibrated A/A noise from %s bounds the spread of per-round quantiles from below", o.Noise.Path)
	}
	return method, j.ruleText()
}

// ruleText states the rule of the verdicts, from its one description
// (rule.go).
func (j *Judge) ruleText() string { return RuleText(j.opt) }

// verdictNotes say what limits the latency verdicts of a comparison.
func (j *Judge) verdictNotes(c *Comparison) []string {
	single, calibrated := 0, 0
	for _, s := range c.Scenarios {
		if s.Method == MethodBootstrap {
			single++
			if s.NoiseSource == "calibration" {
				calibrated++
			}
		}
	}
	if single == 0 {
		return nil
	}
	floor := fmt.Sprintf("%.0f%% (--noise-floor)", j.opt.NoiseFloor*100)
	switch {
	case calibrated == single:
		floor = "the calibrated noise of each scenario"
	case calibrated > 0:
		floor += ", or the calibrated noise of a scenario"
	}
	return []string{fmt.Sprintf("single round on a side (%d scenario(s)): variation between runs cannot be measured, "+
		"so latency changes count only beyond %s; to judge smaller changes, compare several rounds per side (joinbench ab)", single, floor)}
}
