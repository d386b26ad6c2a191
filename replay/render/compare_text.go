package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/replay/compare"
	"github.com/joinbench/joinbench/replay/stats"
)

func sideText(s compare.Side) string {
	out := strings.Join(s.RunIDs, ", ")
	if s.ServerVersion != "" {
		out += " (" + s.ServerVersion + ")"
	}
	rounds := "1 round"
	if s.Rounds != 1 {
		rounds = fmt.Sprintf("%d rounds", s.Rounds)
	}
	return fmt.Sprintf("%s: %s, %d executions", out, rounds, s.Executions)
}

func ratioText(iv *stats.Interval) string {
	if iv == nil {
		return "-"
	}
	return fmt.Sprintf("%s [%s, %s]", fratio(iv.Ratio), fratio(iv.Low), fratio(iv.High))
}

// fratio prints a ratio with two decimals; the bounds of intervals from
// very few rounds can be far out, and print in three significant digits.
func fratio(v float64) string {
	if v != 0 && (v < 0.01 || v >= 1000) {
		return fmt.Sprintf("%.3g", v)
	}
	return fmt.Sprintf("%.2f", v)
}

var verdictOrder = []string{compare.WrongResults, compare.Regression, compare.Improvement, compare.NoChange, compare.TooNoisy,
	compare.InsufficientData, compare.OnlyInBase, compare.OnlyInCandidate}

func summaryLine(c *compare.Comparison) string {
	var parts []string
	for _, v := range verdictOrder {
		if n := c.Counts[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	out := strings.Join(parts, ", ")
	if c.Overall != nil {
		out += fmt.Sprintf("; all scenarios: %s (%.2f)", c.Overall.Verdict, c.Overall.Median.Ratio)
	}
	if n := c.Unmeasured(); n > 0 {
		if c.AllowMissing {
			out += fmt.Sprintf("; %d scenario(s) measured on one side only, accepted (--allow-missing)", n)
		} else {
			out += fmt.Sprintf("; FAILS: %d scenario(s) measured on one side only (--allow-missing accepts them)", n)
		}
	}
	return out
}

// writeComparisonText prints a comparison as text or markdown.
func writeComparisonText(w io.Writer, c *compare.Comparison, md bool) {
	writeComparisonHeader(w, c, md)
	rows := c.Scenarios
	if c.Overall != nil {
		rows = append(slices.Clone(rows), *c.Overall)
	}
	writeVerdictTable(w, rows, md)
	writeStallsText(w, md, c.Stalls)
	writeDetails(w, rows, md)
	fmt.Fprintf(w, "Method: %s.\n", c.Method)
	if md {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Rule: %s.\n", c.Rule)
}

// writeComparisonHeader prints the sides, the verdict line, the warnings
// and the notes.
func writeComparisonHeader(w io.Writer, c *compare.Comparison, md bool) {
	heading(w, md, 1, "joinbench compare")
	if md {
		fmt.Fprintf(w, "- **base**: %s\n- **candidate**: %s\n- **verdict**: %s\n\n", sideText(c.Base), sideText(c.Candidate), summaryLine(c))
	} else {
		fmt.Fprintf(w, "base:      %s\ncandidate: %s\nverdict:   %s\n\n", sideText(c.Base), sideText(c.Candidate), summaryLine(c))
	}
	for _, s := range c.Warnings {
		fmt.Fprintln(w, listItem(md)+"warning: "+s)
	}
	if c.ChecksumsSkipped != "" {
		fmt.Fprintln(w, listItem(md)+"note: "+c.ChecksumsSkipped)
	}
	for _, s := range c.Notes {
		fmt.Fprintln(w, listItem(md)+"note: "+s)
	}
	if len(c.Warnings) > 0 || c.ChecksumsSkipped != "" || len(c.Notes) > 0 {
		fmt.Fprintln(w)
	}
}

// writeVerdictTable prints one line per scenario (and the overall row).
func writeVerdictTable(w io.Writer, rows []compare.ScenarioComparison, md bool) {
	t := &table{head: []string{"scenario", "verdict", "median ratio [CI]", "p95 ratio [CI]", "p99 ratio [CI]",
		"base p50 ms", "cand p50 ms", "rounds base/cand", "executions base/cand", "method", "errors base→cand", "plan"},
		right: map[int]bool{5: true, 6: true, 7: true, 8: true}}
	for _, s := range rows {
		t.add(verdictCells(&s, md)...)
	}
	t.write(w, md)
	fmt.Fprintln(w)
}

// verdictCells are the cells of a scenario's line of the verdict table.
func verdictCells(s *compare.ScenarioComparison, md bool) []string {
	verdict := s.Verdict
	if md && (verdict == compare.Regression || verdict == compare.WrongResults) {
		verdict = "**" + verdict + "**"
	}
	b50, c50 := "-", "-"
	// A side with only statements cut at the end has a summary, but no
	// latency.
	if s.Base != nil && s.Base.Executions > 0 {
		b50 = fms(s.Base.P50Ms)
	}
	if s.Candidate != nil && s.Candidate.Executions > 0 {
		c50 = fms(s.Candidate.P50Ms)
	}
	errs := "-"
	if s.Errors != nil {
		errs = fpct(s.Errors.Base) + "→" + fpct(s.Errors.Candidate)
	}
	plan := ""
	if s.PlanChanged {
		plan = "changed"
	}
	rounds, execs := "-", "-"
	if s.Method != "" {
		rounds = fmt.Sprintf("%d/%d", s.BaseRounds, s.CandidateRounds)
		execs = fmt.Sprintf("%d/%d", s.BaseExecutions, s.CandidateExecutions)
	}
	return []string{s.Scenario, verdict, ratioText(s.Median), ratioText(s.P95), ratioText(s.P99), b50, c50, rounds, execs,
		compare.MethodLabel(s), errs, plan}
}

// writeDetails prints, for each scenario with reasons or a plan change,
// why it got its verdict, the parameters of wrong results and the plan
// diff.
func writeDetails(w io.Writer, rows []compare.ScenarioComparison, md bool) {
	var details []compare.ScenarioComparison
	for _, s := range rows {
		if len(s.Reasons) > 0 || s.PlanDiff != "" {
			details = append(details, s)
		}
	}
	if len(details) == 0 {
		return
	}
	heading(w, md, 2, "Details")
	for _, s := range details {
		fmt.Fprintf(w, "%s%s: %s", listItem(md), s.Scenario, s.Verdict)
		if len(s.Reasons) > 0 {
			fmt.Fprintf(w, "; %s", strings.Join(s.Reasons, "; "))
		}
		fmt.Fprintln(w)
		for _, ex := range s.Checksums.Examples {
			fmt.Fprintf(w, "    different result for parameters (%s)\n", strings.Join(ex, ", "))
		}
		if s.PlanDiff == "" {
			continue
		}
		if md {
			fmt.Fprintln(w, "\n  ```diff")
			fmt.Fprintln(w, indent(s.PlanDiff, "  "))
			fmt.Fprintln(w, "  ```")
		} else {
			fmt.Fprintln(w, indent(s.PlanDiff, "    "))
		}
	}
	fmt.Fprintln(w)
}

// writeStallsText prints a stall comparison.
func writeStallsText(w io.Writer, md bool, sc *compare.StallComparison) {
	if sc == nil {
		return
	}
	heading(w, md, 2, "Stall time per endpoint (actions)")
	fmt.Fprintf(w, "%sbase:      %s\n", listItem(md), strings.Join(sc.Base, " | "))
	fmt.Fprintf(w, "%scandidate: %s\n", listItem(md), strings.Join(sc.Candidate, " | "))
	fmt.Fprintf(w, "%sverdict:   candidate has %s\n\n", listItem(md), sc.Verdict)
	t := &table{head: []string{"endpoint", "verdict", "longest ms base→cand", "sum ms base→cand", "worst latency ms base→cand", "noise ms"},
		right: map[int]bool{5: true}}
	for _, d := range sc.Endpoints {
		ep := d.Endpoint
		if d.CandidateEndpoint != "" {
			ep += " / " + d.CandidateEndpoint
		}
		t.add(ep, d.Verdict, fmt.Sprintf("%.0f→%.0f", d.BaseLongestMs, d.CandidateLongestMs),
			fmt.Sprintf("%.0f→%.0f", d.BaseTotalMs, d.CandidateTotalMs), fmt.Sprintf("%.0f→%.0f", d.BaseWorstMs, d.CandidateWorstMs),
			fmt.Sprintf("%.0f", d.NoiseMs))
	}
	t.write(w, md)
	fmt.Fprintf(w, "\nStall rule: %s.\n\n", sc.Rule)
}
