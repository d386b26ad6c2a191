package render

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/render/plot"
	"github.com/joinbench/joinbench/work"
)

// The compare view: one self-contained page (inline CSS, SVG and a small
// script; no network) with a forest plot of every scenario's ratio, the
// verdict table, and per scenario, picked from a list, the two sides'
// latency distributions overlaid, the work table and the two plans side
// by side with the changed steps marked.

//go:embed compare.html.tmpl
var compareTemplate string

// comparePage is parsed on first use, as pageTmpl is.
var comparePage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("compare").Funcs(template.FuncMap{
		"ratio":  ratioText,
		"ms":     formatMs,
		"side":   sideText,
		"join":   strings.Join,
		"work":   workCell,
		"count":  work.FormatCount,
		"wratio": compare.RatioText,
		"figure": func(name string) string {
			return map[string]string{"rows_examined": "rows examined", "lookups": "index lookups", "pages": "page requests",
				"compared": "join buffer comparisons", "rows_changed": "rows changed"}[name]
		},
		"verdictText": func(s compare.ScenarioComparison) string { return verdictText(&s) },
		"verdictClass": func(v string) string {
			switch v {
			case compare.Regression, compare.WrongResults:
				return "bad"
			case compare.Improvement:
				return "good"
			}
			return ""
		},
	}).Parse(compareTemplate))
})

// htmlComparison is a comparison with its charts drawn.
type htmlComparison struct {
	*compare.Comparison
	Summary string
	Forest  template.HTML
	Rows    []compare.ScenarioComparison // the scenarios, then the overall row
	Details []htmlScenarioCompare
	// Pick is the scenario the page shows first: the first regression, or
	// the first scenario.
	Pick string
	// Warnings are the comparison's but the saturated machine's, which
	// the page shows on its own, first.
	Warnings []string
}

// htmlScenarioCompare is one scenario's detail: its distributions drawn
// and its plans side by side.
type htmlScenarioCompare struct {
	compare.ScenarioComparison
	ID    string
	CDF   template.HTML
	Plans *sideBySide
}

// sideBySide is a plan diff laid out in two columns.
type sideBySide struct {
	BaseTitle, CandidateTitle string
	Lines                     []planLine
}

// planLine is a line of each side; Base or Candidate is empty where the
// other side has a line the first lacks. Changed marks lines not in both.
type planLine struct {
	Base, Candidate       string
	BaseMark, CandMark    bool
	HasBase, HasCandidate bool
}

const (
	colBase = "#2b6cb0"
	colCand = "#dd6b20"
	colBad  = "#c53030"
	colGood = "#2f855a"
	colSame = "#718096"
)

// writeCompareHTML renders a comparison as one self-contained page.
func writeCompareHTML(w io.Writer, c *compare.Comparison) error {
	hc := htmlComparison{Comparison: c, Summary: summaryLine(c), Rows: slices.Clone(c.Scenarios)}
	for _, w := range c.Warnings {
		if len(c.Saturated) == 0 || !strings.HasPrefix(w, "verdicts were taken on a saturated machine") {
			hc.Warnings = append(hc.Warnings, w)
		}
	}
	if c.Overall != nil {
		hc.Rows = append(hc.Rows, *c.Overall)
	}
	bound, what := bandOf(c)
	hc.Forest = template.HTML(forestOf(hc.Rows, bound, what).SVG())
	for i, s := range c.Scenarios {
		d := htmlScenarioCompare{ScenarioComparison: s, ID: fmt.Sprintf("s%d", i), CDF: template.HTML(cdfChart(s).SVG())}
		if s.PlanDiff != "" {
			d.Plans = planSideBySide(s.PlanDiff)
		}
		hc.Details = append(hc.Details, d)
		if hc.Pick == "" && (s.Verdict == compare.Regression || s.Verdict == compare.WrongResults) {
			hc.Pick = d.ID
		}
	}
	if hc.Pick == "" && len(hc.Details) > 0 {
		hc.Pick = hc.Details[0].ID
	}
	return comparePage().Execute(w, hc)
}

// bandOf is the bound a latency change must pass, and what it is: the
// noise floor when every scenario was judged from a single round (the
// bootstrap's bound), else the threshold.
func bandOf(c *compare.Comparison) (bound float64, what string) {
	floor := len(c.Scenarios) > 0
	for _, s := range c.Scenarios {
		if s.Method != "" && s.Method != compare.MethodBootstrap {
			floor = false
		}
	}
	if floor {
		return 1 + c.NoiseFloor, fmt.Sprintf("within the %.0f%% noise floor of a single round", c.NoiseFloor*100)
	}
	return 1 + c.Threshold, fmt.Sprintf("within the %.0f%% threshold", c.Threshold*100)
}

// forestOf is the forest plot of the rows' median ratios, the band of
// changes too small to count behind them.
func forestOf(rows []compare.ScenarioComparison, bound float64, what string) plot.Forest {
	f := plot.Forest{W: 1100, Title: "median latency ratio, candidate / base, with its interval", XLabel: "ratio (log scale): right of 1 is slower",
		Band: [2]float64{1 / bound, bound}, BandNote: what}
	for _, s := range rows {
		r := plot.ForestRow{Label: s.Scenario, Color: colSame, Title: s.Scenario + ": " + s.Verdict}
		switch s.Verdict {
		case compare.Regression, compare.WrongResults:
			r.Color = colBad
		case compare.Improvement:
			r.Color = colGood
		}
		if iv := s.Median; iv != nil {
			r.Mid, r.Low, r.High = iv.Ratio, iv.Low, iv.High
			r.Title += fmt.Sprintf(", median %s", ratioText(iv))
		}
		if len(s.Reasons) > 0 {
			r.Title += "; " + s.Reasons[0]
		}
		if s.Work != nil {
			r.Mark, r.MarkTitle = 1, s.Scenario+": the same work per execution"
			if l := s.Work.Largest(); l != nil && !math.IsInf(l.Ratio, 0) {
				r.Mark, r.MarkTitle = l.Ratio, s.Scenario+": work "+s.Work.Text()
			}
		}
		f.Rows = append(f.Rows, r)
	}
	return f
}

// cdfChart overlays the two sides' latency distributions of a scenario.
func cdfChart(s compare.ScenarioComparison) plot.Chart {
	c := plot.Chart{Title: "latency distribution (CDF)", XLabel: "ms (log)", YLabel: "share of executions", W: 560, H: 260,
		XFmt: func(v float64) string { return plot.Num(math.Pow(10, v)) }}
	for _, side := range []struct {
		name  string
		color string
		pts   []compare.CDFPoint
	}{{"base", colBase, s.BaseCDF}, {"candidate", colCand, s.CandidateCDF}} {
		var x, y []float64
		for _, p := range side.pts {
			if p.Ms <= 0 {
				continue
			}
			x = append(x, math.Log10(p.Ms))
			y = append(y, p.Share)
		}
		if len(x) > 0 {
			c.Series = append(c.Series, plot.Series{Name: side.name, Color: side.color, X: x, Y: y, Width: 2})
		}
	}
	c.XTicks = logMsTicks(c.Series)
	return c
}

// logMsTicks are ticks at 1, 2 and 5 times the powers of ten over the
// series' log10 x values, so that the axis reads in round milliseconds.
func logMsTicks(series []plot.Series) []plot.Tick {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, x := range s.X {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if math.IsInf(lo, 0) {
		return nil
	}
	var ticks []plot.Tick
	for e := math.Floor(lo); e <= math.Ceil(hi); e++ {
		for _, m := range []float64{1, 2, 5} {
			if v := e + math.Log10(m); v >= lo-1e-9 && v <= hi+1e-9 {
				ticks = append(ticks, plot.Tick{Pos: v, Label: plot.Num(math.Pow(10, v))})
			}
		}
	}
	return ticks
}

// planSideBySide lays a plan diff (compare.LineDiff, after its two
// header lines) out in two columns: lines of both sides side by side,
// and a line of one side only beside a blank, marked.
func planSideBySide(diff string) *sideBySide {
	sb := &sideBySide{}
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	var minus, plus []string
	flush := func() {
		for i := range max(len(minus), len(plus)) {
			var l planLine
			if i < len(minus) {
				l.Base, l.HasBase, l.BaseMark = minus[i], true, true
			}
			if i < len(plus) {
				l.Candidate, l.HasCandidate, l.CandMark = plus[i], true, true
			}
			sb.Lines = append(sb.Lines, l)
		}
		minus, plus = nil, nil
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "--- "):
			sb.BaseTitle = strings.TrimPrefix(l, "--- ")
		case strings.HasPrefix(l, "+++ "):
			sb.CandidateTitle = strings.TrimPrefix(l, "+++ ")
		case strings.HasPrefix(l, "- "):
			minus = append(minus, l[2:])
		case strings.HasPrefix(l, "+ "):
			plus = append(plus, l[2:])
		default:
			flush()
			t := strings.TrimPrefix(l, "  ")
			sb.Lines = append(sb.Lines, planLine{Base: t, Candidate: t, HasBase: true, HasCandidate: true})
		}
	}
	flush()
	return sb
}
