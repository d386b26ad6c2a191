package render

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/stats"
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
	out = fmt.Sprintf("%s: %s, %d executions, %d retries, %d conflicts", out, rounds, s.Executions, s.Retries, s.Conflicts)
	if n := s.FailedCommits - s.Conflicts; n > 0 {
		out += fmt.Sprintf(", %d other failed COMMITs", n)
	}
	return out
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
		out += fmt.Sprintf("; all scenarios: %s (%.2f", c.Overall.Verdict, c.Overall.Median.Ratio)
		if c.Overall.Verdict == compare.NoChange && c.Overall.Detectable > 0 {
			out += "; none as large as " + compare.PercentText(c.Overall.Detectable)
		}
		out += ")"
	}
	if n := c.WarningsChanged(); n > 0 {
		out += fmt.Sprintf("; warnings differ in %d scenario(s) (not a verdict)", n)
	}
	if c.Methods != nil {
		out = "methods (the runs differ by their actions): " + compare.MethodText(c.Methods) +
			"; whole-run latency, for information only: " + out
	}
	if len(c.SideFailures) > 0 {
		var failed []string
		for _, f := range c.SideFailures {
			failed = append(failed, f.String())
		}
		out = "FAILS: " + strings.Join(failed, "; ") + "; scenarios: " + out
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

// textWidth is the width text output wraps at: what a terminal shows.
const textWidth = 100

// writeComparisonText prints a comparison as text or markdown.
func writeComparisonText(w io.Writer, c *compare.Comparison, md bool) {
	writeComparisonHeader(w, c, md)
	rows := c.Scenarios
	if c.Overall != nil {
		rows = append(slices.Clone(rows), *c.Overall)
	}
	writeMethodsText(w, md, c.Methods)
	if c.Methods != nil {
		writeStallsText(w, md, c.Stalls)
		heading(w, md, 2, "Whole-run latency (for information: the runs differ by their actions, so these verdicts do not fail the comparison)")
	}
	if md {
		writeVerdictTable(w, rows, md)
	} else {
		writeSummaryLines(w, rows)
	}
	if c.Methods == nil {
		writeStallsText(w, md, c.Stalls)
	}
	writeDetails(w, rows, md)
	para(w, md, "Method: "+c.Method+".")
	if md {
		fmt.Fprintln(w)
	}
	para(w, md, "Rule: "+c.Rule+".")
}

// para prints a paragraph: as it is in markdown, wrapped in text.
func para(w io.Writer, md bool, s string) {
	if md {
		fmt.Fprintln(w, s)
		return
	}
	fmt.Fprintln(w, wrap(s, textWidth, ""))
}

// wrap breaks s into lines of at most width characters at spaces, each
// line after the first starting with indent; the first keeps its own.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	b.WriteString(lead)
	line := len(lead)
	for i, word := range strings.Fields(s) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case line+1+n > width:
			b.WriteString("\n" + indent)
			line = utf8.RuneCountInString(indent)
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += n
	}
	return b.String()
}

// writeComparisonHeader prints the sides, the verdict line, the warnings
// and the notes.
func writeComparisonHeader(w io.Writer, c *compare.Comparison, md bool) {
	heading(w, md, 1, "joinbench compare")
	if md {
		fmt.Fprintf(w, "- **base**: %s\n- **candidate**: %s\n- **verdict**: %s\n\n", sideText(c.Base), sideText(c.Candidate), summaryLine(c))
	} else {
		// The verdict line is not wrapped: scripts grep it.
		fmt.Fprintf(w, "base:      %s\ncandidate: %s\nverdict:   %s\n\n", sideText(c.Base), sideText(c.Candidate), summaryLine(c))
	}
	item := func(s string) {
		if md {
			fmt.Fprintln(w, listItem(md)+s)
			return
		}
		fmt.Fprintln(w, wrap(s, textWidth, "  "))
	}
	for _, s := range c.Warnings {
		item("warning: " + s)
	}
	if c.ChecksumsSkipped != "" {
		item("note: " + c.ChecksumsSkipped)
	}
	if c.WorkSkipped != "" {
		item("note: work not compared: " + c.WorkSkipped + "; verdicts rest on time alone")
	}
	for _, s := range c.Notes {
		item("note: " + s)
	}
	if len(c.Warnings) > 0 || c.ChecksumsSkipped != "" || c.WorkSkipped != "" || len(c.Notes) > 0 {
		fmt.Fprintln(w)
	}
}

// writeSummaryLines prints one line per scenario (and the overall row), as
// benchstat does: the verdict, the median ratio with its interval, the
// median of each side, the largest change of work per execution, and how
// the verdict was reached. The other quantiles and the reasons are in the
// details; so are the columns that would make the lines wider than a
// terminal (fitColumns).
func writeSummaryLines(w io.Writer, rows []compare.ScenarioComparison) {
	t := &table{head: []string{"scenario", "verdict", "median [CI]", "p50 ms", "work/exec", "rounds", "executions", "method"}}
	for _, s := range rows {
		rounds, execs := "-", "-"
		if s.Method != "" {
			rounds = fmt.Sprintf("%d/%d", s.BaseRounds, s.CandidateRounds)
			execs = fmt.Sprintf("%d/%d", s.BaseExecutions, s.CandidateExecutions)
		}
		b50, c50 := p50s(&s)
		t.add(s.Scenario, verdictText(&s), ratioText(s.Median), b50+"→"+c50, workCell(s.Work), rounds, execs, shortMethod(s.Method))
	}
	fitColumns(t, textWidth, "method", "rounds", "executions", "p50 ms")
	t.write(w, false)
	writeDetectableNote(w, rows, false)
	fmt.Fprintln(w)
}

// verdictText is a scenario's verdict as the tables print it: a "no
// change" with the smallest slowdown it could have seen, "no change <8%"
// (compare.ScenarioComparison.Detectable).
func verdictText(s *compare.ScenarioComparison) string {
	if s.Verdict == compare.NoChange && s.Detectable > 0 {
		return fmt.Sprintf("%s <%s", s.Verdict, compare.PercentText(s.Detectable))
	}
	return s.Verdict
}

// writeDetectableNote explains "no change <N%" under a table that
// printed one.
func writeDetectableNote(w io.Writer, rows []compare.ScenarioComparison, md bool) {
	for _, s := range rows {
		if s.Verdict == compare.NoChange && s.Detectable > 0 {
			if md {
				fmt.Fprintln(w)
			}
			para(w, md, "no change <N%: no slowdown of N% or more; N is the smallest slowdown the scenario's median "+
				"interval would have called a regression (one of that size is caught about half the time; "+
				"docs/compare.md, \"What a verdict can see\").")
			return
		}
	}
}

// fitColumns leaves out of t the columns named in drop, in that order,
// until its lines are at most width characters (or none is left to drop):
// long scenario names would otherwise push every line past a terminal.
func fitColumns(t *table, width int, drop ...string) {
	for _, name := range drop {
		if tableWidth(t) <= width {
			return
		}
		i := slices.Index(t.head, name)
		if i < 0 {
			continue
		}
		t.head = slices.Delete(t.head, i, i+1)
		for k, r := range t.rows {
			if i < len(r) {
				t.rows[k] = slices.Delete(r, i, i+1)
			}
		}
	}
}

// tableWidth is the width of t's widest line as text: its columns' widths
// and two spaces between them.
func tableWidth(t *table) int {
	widths := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	n := 2 * (len(widths) - 1)
	for _, w := range widths {
		n += w
	}
	return n
}

// shortMethod is the method of a latency verdict in a word or two; the
// details say the rest (the floor of the bootstrap).
func shortMethod(m string) string {
	switch m {
	case compare.MethodPaired:
		return "paired t"
	case compare.MethodWelch:
		return "Welch t"
	case compare.MethodBootstrap:
		return "bootstrap"
	}
	return "-"
}

// workCell is a scenario's change of work in a cell: the figure that
// changed most, "same" A/A, "-" when work was not compared.
func workCell(wc *compare.WorkComparison) string {
	if wc == nil {
		return "-"
	}
	l := wc.Largest()
	if l == nil {
		return "same"
	}
	name := strings.TrimSuffix(strings.TrimPrefix(l.Name, "rows_"), "_examined")
	if l.Name == "rows_examined" {
		name = "rows"
	}
	return name + " " + compare.RatioText(l.Ratio)
}

// p50s are the sides' medians in ms, "-" for a side without a latency.
func p50s(s *compare.ScenarioComparison) (string, string) {
	b50, c50 := "-", "-"
	// A side with only statements cut at the end has a summary, but no
	// latency.
	if s.Base != nil && s.Base.Executions > 0 {
		b50 = formatMs(s.Base.P50Ms)
	}
	if s.Candidate != nil && s.Candidate.Executions > 0 {
		c50 = formatMs(s.Candidate.P50Ms)
	}
	return b50, c50
}

// writeVerdictTable prints one line per scenario (and the overall row).
func writeVerdictTable(w io.Writer, rows []compare.ScenarioComparison, md bool) {
	t := &table{head: []string{"scenario", "verdict", "median ratio [CI]", "p95 ratio [CI]", "p99 ratio [CI]",
		"base p50 ms", "cand p50 ms", "rounds base/cand", "executions base/cand", "method", "errors base→cand", "work/exec", "plan"},
		right: map[int]bool{5: true, 6: true, 7: true, 8: true}}
	for _, s := range rows {
		t.add(verdictCells(&s, md)...)
	}
	t.write(w, md)
	writeDetectableNote(w, rows, md)
	fmt.Fprintln(w)
}

// verdictCells are the cells of a scenario's line of the verdict table.
func verdictCells(s *compare.ScenarioComparison, md bool) []string {
	verdict := verdictText(s)
	if md && (verdict == compare.Regression || verdict == compare.WrongResults) {
		verdict = "**" + verdict + "**"
	}
	b50, c50 := p50s(s)
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
		compare.MethodLabel(s), errs, workCell(s.Work), plan}
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
		if md {
			fmt.Fprintf(w, "%s%s: %s", listItem(md), s.Scenario, s.Verdict)
			if len(s.Reasons) > 0 {
				fmt.Fprintf(w, "; %s", strings.Join(s.Reasons, "; "))
			}
			fmt.Fprintln(w)
		} else {
			// The scenario and verdict, then a line per reason: the work's
			// first, in a DBA's words.
			fmt.Fprintf(w, "%s: %s\n", s.Scenario, s.Verdict)
			for _, r := range s.Reasons {
				fmt.Fprintln(w, "    "+wrap(r, textWidth-4, "      "))
			}
		}
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
			for _, l := range strings.Split(strings.TrimRight(s.PlanDiff, "\n"), "\n") {
				// A plan step can be long: wrapped under itself.
				lead := len(l) - len(strings.TrimLeft(l, " +-"))
				fmt.Fprintln(w, "    "+l[:lead]+wrap(l[lead:], textWidth-4-lead, strings.Repeat(" ", lead+8)))
			}
		}
	}
	fmt.Fprintln(w)
}

// writeMethodsText prints a comparison of methods: the throughput during
// the actions against each run's baseline, and flow control.
func writeMethodsText(w io.Writer, md bool, mc *compare.MethodComparison) {
	if mc == nil {
		return
	}
	heading(w, md, 2, "Methods: what the actions cost each run's workload")
	fmt.Fprintf(w, "%sbase:      %s\n", listItem(md), strings.Join(mc.Base, " | "))
	fmt.Fprintf(w, "%scandidate: %s\n", listItem(md), strings.Join(mc.Candidate, " | "))
	fmt.Fprintf(w, "%sverdict:   %s\n\n", listItem(md), mc.Verdict)
	t := &table{head: []string{"endpoint", "verdict", "throughput during the actions, of baseline, base→cand", "executions lost base→cand", "noise"},
		right: map[int]bool{3: true, 4: true}}
	for _, d := range mc.Throughput {
		if d.Verdict == compare.NoTraffic {
			t.add(d.Endpoint, d.Verdict, "-", "-", "-")
			continue
		}
		t.add(d.Endpoint, d.Verdict, fmt.Sprintf("%.0f%%→%.0f%%", d.BaseFraction*100, d.CandidateFraction*100),
			fmt.Sprintf("%.0f→%.0f", d.BaseLost, d.CandidateLost), fmt.Sprintf("%.0f points", d.Noise*100))
	}
	t.write(w, md)
	if len(mc.FlowControl) > 0 {
		fmt.Fprintln(w)
		ft := &table{head: []string{"node", "flow control paused during the actions, base→cand"}}
		for _, p := range mc.FlowControl {
			ft.add(p.Node, fmt.Sprintf("%.1f%%→%.1f%%", p.Base*100, p.Candidate*100))
		}
		ft.write(w, md)
	}
	fmt.Fprintf(w, "\nMethod rule: %s.\n\n", mc.Rule)
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
		if strings.HasPrefix(d.Verdict, compare.NoTraffic) {
			t.add(ep, d.Verdict, "-", "-", "-", "-")
			continue
		}
		t.add(ep, d.Verdict, fmt.Sprintf("%.0f→%.0f", d.BaseLongestMs, d.CandidateLongestMs),
			fmt.Sprintf("%.0f→%.0f", d.BaseTotalMs, d.CandidateTotalMs), fmt.Sprintf("%.0f→%.0f", d.BaseWorstMs, d.CandidateWorstMs),
			fmt.Sprintf("%.0f", d.NoiseMs))
	}
	t.write(w, md)
	fmt.Fprintf(w, "\nStall rule: %s.\n\n", sc.Rule)
}
