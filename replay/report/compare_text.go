package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/replay/compare"
	"github.com/joinbench/joinbench/replay/stats"
)

// WriteComparison renders a comparison as text, markdown or JSON.
func WriteComparison(w io.Writer, c *compare.Comparison, format string) error {
	switch format {
	case FormatJSON:
		return writeJSON(w, c)
	case FormatText, FormatMarkdown, "":
		writeComparisonText(w, c, format == FormatMarkdown)
		return nil
	}
	return fmt.Errorf("compare cannot be rendered as %q (text, markdown or json)", format)
}

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

func writeComparisonText(w io.Writer, c *compare.Comparison, md bool) {
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
	t := &table{head: []string{"scenario", "verdict", "median ratio [CI]", "p95 ratio [CI]", "p99 ratio [CI]",
		"base p50 ms", "cand p50 ms", "rounds base/cand", "executions base/cand", "method", "errors base→cand", "plan"},
		right: map[int]bool{5: true, 6: true, 7: true, 8: true}}
	rows := c.Scenarios
	if c.Overall != nil {
		rows = append(slices.Clone(rows), *c.Overall)
	}
	for _, s := range rows {
		verdict := s.Verdict
		if md && (verdict == compare.Regression || verdict == compare.WrongResults) {
			verdict = "**" + verdict + "**"
		}
		b50, c50 := "-", "-"
		// A side with only statements cut at the end has a summary, but
		// no latency.
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
		t.add(s.Scenario, verdict, ratioText(s.Median), ratioText(s.P95), ratioText(s.P99), b50, c50, rounds, execs, compare.MethodLabel(&s), errs, plan)
	}
	t.write(w, md)
	fmt.Fprintln(w)
	writeStallsText(w, md, c.Stalls)

	var details []compare.ScenarioComparison
	for _, s := range rows {
		if len(s.Reasons) > 0 || s.PlanDiff != "" {
			details = append(details, s)
		}
	}
	if len(details) > 0 {
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
			if s.PlanDiff != "" {
				if md {
					fmt.Fprintln(w, "\n  ```diff")
					fmt.Fprintln(w, indent(s.PlanDiff, "  "))
					fmt.Fprintln(w, "  ```")
				} else {
					fmt.Fprintln(w, indent(s.PlanDiff, "    "))
				}
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Method: %s.\n", c.Method)
	if md {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Rule: %s.\n", c.Rule)
}
