package experiment

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/internal/usage"
)

// hotDistribution is the hot access: a fifth of the ids gets 80% of the
// draws (the point scenarios' hotspot).
const hotDistribution = "hotspot"

// mixScenarios are the point scenarios' counts per event for a share of
// writes, reduced: 10% writes is point_select=9 and point_update=1.
func mixScenarios(writePercent int) ([]string, error) {
	if writePercent < 0 || writePercent > 100 {
		return nil, usage.Errorf("--write-percent %d: a share of writes from 0 to 100", writePercent)
	}
	w, r := writePercent, 100-writePercent
	g := gcd(w, r)
	var s []string
	if r > 0 {
		s = append(s, fmt.Sprintf("point_select=%d", r/g))
	}
	if w > 0 {
		s = append(s, fmt.Sprintf("point_update=%d", w/g))
	}
	return s, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mixResult is one mix's throughput, uniform and hot, per repetition.
type mixResult struct {
	writePercent int
	uniform, hot []float64 // executions per second
}

// hotVsUniform loads main1, sets up the regime in which a buffer-pool
// miss is a disk read (hot_regime.go), then runs the point scenarios at
// each mix, uniform then hot, Repetitions times in turn, so that drift
// falls on both alike; the regime is undone after, also when the lesson
// is interrupted.
func hotVsUniform(ctx context.Context, e *env) (p *Page, err error) {
	// A mistake in the mixes is said before the tables are loaded.
	for _, wp := range e.o.WritePercents {
		if _, err := mixScenarios(wp); err != nil {
			return nil, err
		}
	}
	if err := e.prepare(ctx); err != nil {
		return nil, err
	}
	reg, undo, err := e.hotRegime(ctx)
	defer func() {
		if uerr := undo(); uerr != nil {
			err = errors.Join(err, fmt.Errorf("setting back what the lesson changed: %w", uerr))
		}
	}()
	if err != nil {
		if e.interrupted(ctx, err) {
			return nil, ctx.Err()
		}
		return nil, err
	}
	// Each mix is measured pair by pair, uniform then hot: an interrupted
	// lesson keeps the pairs it finished, and the run it was in the middle
	// of counts for neither side.
	var mixes []mixResult
measure:
	for _, wp := range e.o.WritePercents {
		scs, err := mixScenarios(wp)
		if err != nil {
			return nil, err
		}
		mixes = append(mixes, mixResult{writePercent: wp})
		m := &mixes[len(mixes)-1]
		for k := range repetitions(e.o) {
			var pair [2]float64
			for i, dist := range []string{"uniform", hotDistribution} {
				out, err := e.run(ctx, fmt.Sprintf("w%d-%s-%d", wp, dist, k+1), workload{scenarios: scs, distribution: dist}, e.o.Window)
				if e.interrupted(ctx, err) {
					break measure
				}
				if err != nil {
					return nil, err
				}
				pair[i] = out.Summary.QPS
			}
			m.uniform, m.hot = append(m.uniform, pair[0]), append(m.hot, pair[1])
		}
	}
	p = hotUniformPage(e.o, mixes)
	p.Notes = append(p.Notes, reg.notes(e.o)...)
	return p, nil
}

// gapTrend says how the gap at a share of writes compares with the gap
// at the share before, from their intervals: "smaller" when its whole
// interval lies below the other's, "larger" above, "no clear change"
// when they overlap, and "no interval" with one repetition.
func gapTrend(before, now Change) string {
	switch {
	case before.N < 2 || now.N < 2:
		return "no interval"
	case now.High < before.Low:
		return "smaller"
	case now.Low > before.High:
		return "larger"
	}
	return "no clear change"
}

// sideOf says which way an interval points: hot faster when it lies above
// zero, slower below, no difference shown when it holds zero.
func sideOf(c Change) string {
	switch {
	case c.N < 2:
		return "one repetition, no interval"
	case c.Low > 0:
		return "hot faster"
	case c.High < 0:
		return "hot slower"
	}
	return "no difference shown: the interval holds zero"
}

// rate is a side's mean rate, with the range of its repetitions when
// there are several: "2510 (2380-2650)".
func rate(xs []float64) string {
	s := fmt.Sprintf("%.0f", mean(xs))
	if len(xs) > 1 {
		s += fmt.Sprintf(" (%.0f-%.0f)", slices.Min(xs), slices.Max(xs))
	}
	return s
}

// hotUniformPage is the lesson's table and verdict: per share of writes,
// in increasing order, the two sides' rates, hot against uniform with its
// interval, and how that gap compares with the share before; the verdict
// quotes the same changes and judges the trend from the lowest share to
// the highest by their intervals (the reference's claim: the gap shrinks
// as writes grow).
func hotUniformPage(o Options, mixes []mixResult) *Page {
	p := &Page{Title: "hot-vs-uniform: point reads and writes, a hot fifth of the rows against all of them",
		What: fmt.Sprintf("point_select and point_update by primary key on main1 (%d rows), %d threads, %s per run, each mix uniform then hot, %d time(s) in turn.",
			o.TableSize, o.Threads, o.Window, max(o.Repetitions, 1)),
		Table: Table{Header: []string{"writes", "uniform (exec/s)", "hot (exec/s)", "hot vs uniform [95% CI]", "gap vs the share before"}}}
	var measured []mixResult
	var unmeasured []string
	for _, m := range mixes {
		p.Tally.Judged += len(m.uniform)
		if len(m.uniform) > 0 {
			measured = append(measured, m)
		} else {
			unmeasured = append(unmeasured, fmt.Sprintf("%d%%", m.writePercent))
		}
	}
	for _, wp := range o.WritePercents[min(len(mixes), len(o.WritePercents)):] {
		unmeasured = append(unmeasured, fmt.Sprintf("%d%%", wp))
	}
	slices.SortStableFunc(measured, func(a, b mixResult) int { return a.writePercent - b.writePercent })
	var parts []string
	for i, m := range measured {
		c := changeOf(m.uniform, m.hot)
		trend := "-"
		if i > 0 {
			trend = gapTrend(changeOf(measured[i-1].uniform, measured[i-1].hot), c)
		}
		p.Table.Rows = append(p.Table.Rows, []string{fmt.Sprintf("%d%%", m.writePercent), rate(m.uniform), rate(m.hot), c.String(), trend})
		parts = append(parts, fmt.Sprintf("%s at %d%% writes (%s)", c, m.writePercent, sideOf(c)))
	}
	p.Figures = append(p.Figures, hotUniformFigure(measured)...) // hot_uniform_figure.go
	p.Verdict = "hot against uniform: " + strings.Join(parts, ", ")
	if len(measured) == 0 {
		p.Verdict = "no pair of runs was measured"
	}
	if n := len(measured); n > 1 {
		lo, hi := measured[0], measured[n-1]
		first, last := changeOf(lo.uniform, lo.hot), changeOf(hi.uniform, hi.hot)
		span := fmt.Sprintf("from %d%% to %d%% writes", lo.writePercent, hi.writePercent)
		switch gapTrend(first, last) {
		case "smaller":
			p.Verdict += fmt.Sprintf("; the gap shrinks as writes grow (%s: %s, then %s, their intervals apart)", span, first, last)
		case "larger":
			p.Verdict += fmt.Sprintf("; the gap grows as writes grow (%s: %s, then %s, their intervals apart)", span, first, last)
		case "no clear change":
			p.Verdict += fmt.Sprintf("; no clear change of the gap %s (%s, then %s: their intervals overlap)", span, first, last)
		default:
			p.Verdict += fmt.Sprintf("; the trend %s cannot be judged from one repetition (--repetitions 2 or more)", span)
		}
	}
	p.Notes = []string{
		"hot: the hotspot distribution, a fifth of the ids gets 80% of the lookups and updates; uniform: every id alike. 50% writes is the reference's 50/50 mix of reads and writes.",
		"hot vs uniform: the hot run's executions per second over the uniform run's, as the geometric mean of the repetitions' ratios with its 95% t interval; the rates are the means of the repetitions, with their range.",
		"gap vs the share before: smaller or larger when the two intervals lie apart, no clear change when they overlap.",
	}
	if len(unmeasured) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("not measured: %s writes (the lesson ended before them).", joinStrings(unmeasured)))
	}
	return p
}
