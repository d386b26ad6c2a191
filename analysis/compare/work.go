package compare

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// Work: what the executions did, not how long they took (docs/work.md).
//
// With the same seed and data both sides sample the same executions,
// which ran with the same values: their samples pair on (scenario,
// thread, event, statement), and A/A every figure of a pair is the same.
// So work tells a plan or optimizer regression in a single round, where
// time needs a noise floor. A scenario whose work per execution grew by
// the bound (Options.WorkBound, 1.5x) and by WorkMinDelta per execution
// in one of its figures (rows examined, index lookups, page requests, rows
// compared in join buffers; for writes rows changed too) is a regression
// whatever its time says; one whose work shrank so in one figure, and grew
// in none, is an improvement when its time says no change. No single
// figure catches every regression: a lost index grew rows examined 1.27x
// but lookups 2.3x and pages 2x; a block nested loop lowers the pages
// while comparing millions of rows in its join buffer.

// DefaultWorkBound is the growth of a figure of work per execution that
// counts: A/A it is exactly 1, and the regressions measured grew 2x and
// more in some figure.
const DefaultWorkBound = 1.5

// WorkMinDelta is the least change per execution that counts, so that a
// scenario of a few rows does not fail on 2 → 3.
const WorkMinDelta = 100

// Changes of work (WorkComparison.Change).
const (
	WorkMore = "more"
	WorkLess = "less"
	WorkSame = "same"
)

// WorkPairs are the paired work samples of one scenario: Base[i] and
// Candidate[i] are the same execution (same key and values) on each side,
// of the same source.
type WorkPairs struct {
	Base, Candidate []*results.Work
}

// WorkComparison is the work per execution of a scenario's paired samples
// on both sides.
type WorkComparison struct {
	Source string `json:"source"`
	Pairs  int    `json:"pairs"`
	// Change is "more" (a regression), "less" or "same"; Figures the
	// figures compared, Tables the table accesses (ANALYZE sources).
	Change  string       `json:"change"`
	Figures []WorkFigure `json:"figures"`
	Tables  []WorkTable  `json:"tables,omitempty"`
	// Explain says in a DBA's words which tables changed and how
	// (work.Describe): "level1: 1 → 6,720 rows/exec: ref on idx_parent_id
	// → range on idx_record_status".
	Explain string `json:"explain,omitempty"`
}

// WorkFigure is one figure of work per execution on both sides.
type WorkFigure struct {
	Name      string  `json:"name"` // rows_examined, lookups, pages, compared, rows_changed
	Base      float64 `json:"base"`
	Candidate float64 `json:"candidate"`
	Ratio     float64 `json:"ratio"` // candidate / base (+Inf from 0: null in JSON)
	Change    string  `json:"change"`
}

// workFigureJSON is WorkFigure as JSON has it: a ratio from 0 is null,
// JSON having no infinity.
type workFigureJSON struct {
	Name      string   `json:"name"`
	Base      float64  `json:"base"`
	Candidate float64  `json:"candidate"`
	Ratio     *float64 `json:"ratio"`
	Change    string   `json:"change"`
}

func (f WorkFigure) MarshalJSON() ([]byte, error) {
	j := workFigureJSON{Name: f.Name, Base: f.Base, Candidate: f.Candidate, Change: f.Change}
	if !math.IsInf(f.Ratio, 0) && !math.IsNaN(f.Ratio) {
		j.Ratio = &f.Ratio
	}
	return json.Marshal(j)
}

func (f *WorkFigure) UnmarshalJSON(b []byte) error {
	var j workFigureJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*f = WorkFigure{Name: j.Name, Base: j.Base, Candidate: j.Candidate, Ratio: math.Inf(1), Change: j.Change}
	if j.Ratio != nil {
		f.Ratio = *j.Ratio
	}
	return nil
}

// WorkTable is one table access per execution on both sides.
type WorkTable struct {
	Table         string  `json:"table"`
	BaseRows      float64 `json:"base_rows"`
	CandidateRows float64 `json:"candidate_rows"`
	BaseHow       string  `json:"base_access"` // "ref on idx_parent_id"; "not read"
	CandidateHow  string  `json:"candidate_access"`
}

// workLabels are how the figures read in a verdict line.
var workLabels = map[string]string{
	"rows_examined": "rows examined/exec", "lookups": "index lookups/exec", "pages": "pages/exec",
	"compared": "join buffer comparisons/exec", "rows_changed": "rows changed/exec",
}

// Largest is the figure that changed most (by ratio, away from 1), nil
// when none changed. Of a scenario with more work it is the figure that
// grew most, so that a summary shows why it is a regression and not a
// figure that fell beside it.
func (wc *WorkComparison) Largest() *WorkFigure {
	var best *WorkFigure
	score := func(f *WorkFigure) float64 {
		switch {
		case f.Base == f.Candidate:
			return 0
		case f.Base == 0 || f.Candidate == 0:
			return math.Inf(1)
		}
		return math.Abs(math.Log(f.Candidate / f.Base))
	}
	counts := func(f *WorkFigure) bool {
		switch wc.Change {
		case WorkMore:
			return f.Change == WorkMore
		case WorkLess:
			return f.Change == WorkLess
		}
		return true
	}
	for i := range wc.Figures {
		f := &wc.Figures[i]
		if counts(f) && score(f) > 0 && (best == nil || score(f) > score(best)) {
			best = f
		}
	}
	return best
}

// Text says what changed, the figures that count first: "pages/exec
// 13,341 → 26,717 (2.00x), index lookups/exec 2,858 → 6,601 (2.31x)".
func (wc *WorkComparison) Text() string {
	var parts []string
	for _, change := range []string{WorkMore, WorkLess} {
		for _, f := range wc.Figures {
			if f.Change == change {
				parts = append(parts, fmt.Sprintf("%s %s → %s (%s)", workLabels[f.Name], work.FormatCount(f.Base), work.FormatCount(f.Candidate), RatioText(f.Ratio)))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// RatioText writes a ratio of work: "2.00x", "from 0".
func RatioText(r float64) string {
	if math.IsInf(r, 1) {
		return "from 0"
	}
	return fmt.Sprintf("%.2fx", r)
}

// PairWork pairs the work samples of two sides on their key (scenario,
// thread, event, statement) and values, of the same source and without
// error: the first sample of a key on each side (rounds of one side
// sample the same executions with the same values), by scenario.
func PairWork(base, cand []results.Work) map[string]*WorkPairs {
	type key struct {
		scenario string
		segment  int32
		thread   int32
		event    int64
		seq      int32
	}
	kb := func(w *results.Work) key { return key{w.Scenario, w.Segment, w.Thread, w.Event, w.StatementSeq} }
	first := map[key]*results.Work{}
	for i := range base {
		w := &base[i]
		if w.Error != "" {
			continue
		}
		if _, ok := first[kb(w)]; !ok {
			first[kb(w)] = w
		}
	}
	out := map[string]*WorkPairs{}
	seen := map[key]bool{}
	for i := range cand {
		c := &cand[i]
		k := kb(c)
		b := first[k]
		if c.Error != "" || b == nil || seen[k] || b.Source != c.Source || !slices.Equal(b.Params, c.Params) {
			continue
		}
		seen[k] = true
		p := out[c.Scenario]
		if p == nil {
			p = &WorkPairs{}
			out[c.Scenario] = p
		}
		p.Base, p.Candidate = append(p.Base, b), append(p.Candidate, c)
	}
	return out
}

// compareWork compares a scenario's paired samples: nil without pairs.
func (j *Judge) compareWork(p *WorkPairs) *WorkComparison {
	if p == nil || len(p.Base) == 0 {
		return nil
	}
	bs, cs := work.Summarize(p.Base), work.Summarize(p.Candidate)
	wc := &WorkComparison{Source: string(p.Base[0].Source), Pairs: len(p.Base)}
	add := func(name string, b, c float64) {
		f := WorkFigure{Name: name, Base: b, Candidate: c, Ratio: 1, Change: WorkSame}
		switch {
		case b == c:
		case b == 0:
			f.Ratio = math.Inf(1)
		default:
			f.Ratio = c / b
		}
		bound := j.opt.WorkBound
		switch {
		case c >= bound*b && c-b >= WorkMinDelta:
			f.Change = WorkMore
		case b >= bound*c && b-c >= WorkMinDelta:
			f.Change = WorkLess
		}
		wc.Figures = append(wc.Figures, f)
	}
	if bs.HasRowsExamined && cs.HasRowsExamined {
		add("rows_examined", bs.RowsExamined, cs.RowsExamined)
	}
	if len(bs.Tables) > 0 || len(cs.Tables) > 0 {
		add("lookups", bs.Lookups, cs.Lookups)
		add("compared", bs.Compared, cs.Compared)
	} else if b, ok := meanOf(p.Base, func(w *results.Work) *int64 { return w.HandlerReadKey }); ok {
		if c, ok := meanOf(p.Candidate, func(w *results.Work) *int64 { return w.HandlerReadKey }); ok {
			add("lookups", b, c)
		}
	}
	if bs.HasPages && cs.HasPages {
		add("pages", bs.Pages, cs.Pages)
	}
	if b, ok := meanOf(p.Base, func(w *results.Work) *int64 { return w.RowsChanged }); ok {
		if c, ok := meanOf(p.Candidate, func(w *results.Work) *int64 { return w.RowsChanged }); ok && (b > 0 || c > 0) {
			add("rows_changed", b, c)
		}
	}
	wc.Change = WorkSame
	for _, f := range wc.Figures {
		if f.Change == WorkMore {
			wc.Change = WorkMore
			break
		}
		if f.Change == WorkLess {
			wc.Change = WorkLess
		}
	}
	wc.Tables = workTables(bs, cs)
	wc.Explain = work.Describe(bs, cs)
	return wc
}

// meanOf is the mean of a counter over samples, false when one lacks it.
func meanOf(ws []*results.Work, c func(*results.Work) *int64) (float64, bool) {
	sum := 0.0
	for _, w := range ws {
		v, ok := work.Value(c(w))
		if !ok {
			return 0, false
		}
		sum += float64(v)
	}
	return sum / float64(len(ws)), len(ws) > 0
}

// workTables lists the table accesses of both sides, base order first.
func workTables(b, c work.Summary) []WorkTable {
	var out []WorkTable
	for _, p := range work.PairTables(b.Tables, c.Tables) {
		x, y := p.Base, p.Candidate
		out = append(out, WorkTable{Table: x.Name, BaseRows: x.Rows, CandidateRows: y.Rows, BaseHow: x.How(), CandidateHow: y.How()})
	}
	return out
}

// judgeWork puts the scenario's work into its verdict: more work is a
// regression (with a reason in a DBA's words) whatever the time said, less
// work an improvement where the time said no change.
func (j *Judge) judgeWork(sc *ScenarioComparison, p *WorkPairs) {
	wc := j.compareWork(p)
	if wc == nil {
		return
	}
	sc.Work = wc
	why := "work " + wc.Text()
	if wc.Explain != "" {
		why += ": " + wc.Explain
	}
	switch wc.Change {
	case WorkMore:
		if sc.Verdict != WrongResults {
			sc.Verdict = Regression
		}
		sc.Reasons = append([]string{why}, sc.Reasons...)
	case WorkLess:
		if sc.Verdict == NoChange || sc.Verdict == InsufficientData || sc.Verdict == TooNoisy {
			sc.Verdict = Improvement
		}
		sc.Reasons = append(sc.Reasons, why)
	default:
		if sc.PlanChanged && wc.Explain != "" {
			sc.Reasons = append(sc.Reasons, "work within the bound: "+wc.Explain)
		}
	}
}
