package compare

import (
	"fmt"
	"strings"
)

// ErrorRateStep is the least rise of a scenario's error rate, as a
// fraction of its executions, that is a regression (when significant).
const ErrorRateStep = 0.01

// A Step is one step of the verdict rule: the verdict it gives and when.
// Steps is the rule's one description: compare --help, the Rule line of
// every output (text, markdown, JSON, the HTML view) and the verdict table
// of docs/compare.md are all generated from it, with the figures of the
// comparison's options. Each step names the code that applies it.
type Step struct {
	Verdict string
	// When is the condition, in words whose {placeholders} Describe fills
	// from the options: {threshold}, {bound}, {inverse}, {noise_floor},
	// {work_bound}, {work_delta}, {min_samples}, {error_points}.
	When string
	// Code is where the step is applied, in this package.
	Code string
	// Work marks the steps of work, left out when work is not judged
	// (Options.WorkBound is NoWork).
	Work bool
}

// Steps is the verdict rule, in the order it is applied: a scenario gets
// the verdict of the first step that holds (the steps of work may turn a
// latency verdict into theirs).
var Steps = []Step{
	{Verdict: OnlyInBase + ", " + OnlyInCandidate, When: "the other side has no execution of the scenario; " +
		"as when a side's executions of it all failed, the comparison fails unless --allow-missing", Code: "scenario.go: judge"},
	{Verdict: WrongResults, When: "a parameter set returns a different result checksum; sets whose checksum already varies within " +
		"one run, and rows a final LIMIT cut among ties, are not counted", Code: "scenario.go: verdict"},
	{Verdict: Regression, When: "the error rate rose by at least {error_points} point, significantly (two-proportion z test)",
		Code: "scenario.go: errorRates"},
	{Verdict: InsufficientData, When: "fewer than {min_samples} successful executions on a side, and no two rounds per side with one " +
		"each", Code: "scenario.go: latencyVerdict"},
	{Verdict: Regression, When: "over rounds, the interval of the median or of the p95 ratio lies wholly above 1 (slower at the " +
		"simultaneous confidence) and the ratio itself is above {bound} (slower by more than {threshold}); with a single round " +
		"on a side (the bootstrap), the median's interval only, wholly above 1 + the noise floor ({noise_floor}, or the " +
		"scenario's calibrated noise): a single run's p95 is not judged", Code: "decide.go"},
	{Verdict: Regression, When: "over rounds, the pooled executions' bootstrap interval of the median lies wholly above 1 + the " +
		"noise floor, however few the rounds", Code: "decide.go"},
	{Verdict: Improvement, When: "the mirror image, on the median only: over rounds its interval wholly below 1 and its ratio " +
		"below {inverse}; with the bootstrap, or the pooled executions, its interval wholly below the inverse of the noise " +
		"floor's bound", Code: "decide.go"},
	{Verdict: TooNoisy, When: "neither, and the scenario's calibrated A/A noise (--noise-file) with the rounds at hand exceeds " +
		"{threshold}", Code: "decide.go"},
	{Verdict: NoChange, When: "anything else", Code: "decide.go"},
	{Verdict: Regression, When: "the candidate ran the scenario and never completed it, while the base completed it often " +
		"enough, or faster than enough of the candidate's statements cut at the end had run", Code: "unfinished.go"},
	{Verdict: Regression, Work: true, When: "the work per execution of the same executions with the same values (same seed, " +
		"data neither side changed) grew {work_bound}x and by {work_delta} or more in rows examined, index lookups, page " +
		"requests or join buffer comparisons, whatever the time", Code: "work.go"},
	{Verdict: Improvement, Work: true, When: "the work shrank so in one figure and grew in none, where the time says " +
		"no change", Code: "work.go"},
	{Verdict: "(all scenarios) " + Regression, When: "over rounds, the same rule on the per-round geometric means of the " +
		"medians, and of the p95s, of the scenarios with an execution in every round; it fails the comparison as a " +
		"scenario's regression or wrong results do", Code: "overall.go"},
}

// Describe is the steps of the rule that apply with the options o
// (defaults applied), their figures filled in.
func Describe(o Options) []Step {
	o = o.WithDefaults()
	pct := func(f float64) string { return fmt.Sprintf("%.4g%%", f*100) }
	fill := strings.NewReplacer(
		"{threshold}", pct(o.Threshold),
		"{bound}", fmt.Sprintf("%.4g", 1+o.Threshold),
		"{inverse}", fmt.Sprintf("1/%.4g", 1+o.Threshold),
		"{noise_floor}", pct(o.NoiseFloor),
		"{work_bound}", fmt.Sprintf("%.3g", o.WorkBound),
		"{work_delta}", fmt.Sprint(WorkMinDelta),
		"{min_samples}", fmt.Sprint(o.MinSamples),
		"{error_points}", fmt.Sprintf("%.4g", ErrorRateStep*100),
	)
	var out []Step
	for _, s := range Steps {
		if s.Work && o.WorkBound <= NoWork {
			continue
		}
		s.When = fill.Replace(s.When)
		out = append(out, s)
	}
	return out
}

// RuleText is the rule on one line, as every output states it.
func RuleText(o Options) string {
	var b strings.Builder
	for i, s := range Describe(o) {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", s.Verdict, s.When)
	}
	return b.String()
}

// RuleHelp is the rule as compare --help lists it: one verdict a
// paragraph, wrapped to width columns under an indent.
func RuleHelp(o Options, width int) string {
	const indent = 22
	var b strings.Builder
	for _, s := range Describe(o) {
		lines := wrap(s.When, width-indent)
		for i, l := range lines {
			label := ""
			if i == 0 {
				label = s.Verdict
			}
			if len(label) > indent-3 {
				fmt.Fprintf(&b, "  %s\n", label)
				label = ""
			}
			fmt.Fprintf(&b, "  %-*s%s\n", indent-2, label, l)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// RuleMarkdown is the rule as a markdown table, with the code that
// applies each step, for docs/compare.md.
func RuleMarkdown(o Options) string {
	var b strings.Builder
	b.WriteString("| verdict | when | applied in |\n|---|---|---|\n")
	for _, s := range Describe(o) {
		fmt.Fprintf(&b, "| %s | %s | `analysis/compare/%s` |\n", s.Verdict, s.When, s.Code)
	}
	return b.String()
}

// wrap breaks text into lines of at most width columns at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			lines = append(lines, line)
			line = w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
