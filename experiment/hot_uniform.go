package experiment

import (
	"context"
	"fmt"
	"strings"
	"time"

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

// hotVsUniform runs the point scenarios at each mix, uniform then hot,
// Repetitions times in turn, so that drift falls on both alike.
func hotVsUniform(ctx context.Context, e *env) (*Page, error) {
	// A mistake in the mixes is said before the tables are loaded.
	for _, wp := range e.o.WritePercents {
		if _, err := mixScenarios(wp); err != nil {
			return nil, err
		}
	}
	if err := e.prepare(ctx); err != nil {
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
	p := hotUniformPage(e.o, mixes)
	// Read also when the lesson was interrupted: the page says what it
	// measured on.
	pool, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if note := e.poolNote(pool); note != "" {
		p.Notes = append(p.Notes, note)
	}
	return p, nil
}

// hotUniformPage is the lesson's table and verdict.
func hotUniformPage(o Options, mixes []mixResult) *Page {
	p := &Page{Title: "hot-vs-uniform: point reads and writes, a hot fifth of the rows against all of them",
		What: fmt.Sprintf("point_select and point_update by primary key on main1 (%d rows), %d threads, %s per run, each mix uniform then hot, %d time(s) in turn.",
			o.TableSize, o.Threads, o.Window, max(o.Repetitions, 1)),
		Table: Table{Header: []string{"writes", "uniform (exec/s)", "hot (exec/s)", "hot vs uniform [95% CI]"}}}
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
	var parts []string
	for _, m := range measured {
		c := changeOf(m.uniform, m.hot)
		p.Table.Rows = append(p.Table.Rows, []string{fmt.Sprintf("%d%%", m.writePercent),
			fmt.Sprintf("%.0f", mean(m.uniform)), fmt.Sprintf("%.0f", mean(m.hot)), c.String()})
		parts = append(parts, fmt.Sprintf("%s at %d%% writes", c, m.writePercent))
	}
	p.Figures = append(p.Figures, hotUniformFigure(measured)...) // hot_uniform_figure.go
	p.Verdict = "hot against uniform: " + strings.Join(parts, ", ")
	if len(measured) == 0 {
		p.Verdict = "no pair of runs was measured"
	}
	if n := len(measured); n > 1 {
		first, last := changeOf(measured[0].uniform, measured[0].hot), changeOf(measured[n-1].uniform, measured[n-1].hot)
		switch {
		case first.N > 0 && last.N > 0 && last.Mean < first.Mean:
			p.Verdict += "; the gap shrinks as writes grow"
		case first.N > 0 && last.N > 0:
			p.Verdict += "; the gap does not shrink as writes grow"
		}
	}
	p.Notes = []string{
		"hot: the hotspot distribution, a fifth of the ids gets 80% of the lookups and updates; uniform: every id alike.",
		"the lesson is about a working set larger than the buffer pool: give the sandbox a pool smaller than main1 with --buffer-pool-size (set for the command, then set back).",
	}
	if len(unmeasured) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("not measured: %s writes (the lesson ended before them).", joinStrings(unmeasured)))
	}
	return p
}

// poolNote compares main1's size with the buffer pool; empty when it
// cannot be read.
func (e *env) poolNote(ctx context.Context) string {
	db, err := e.tgt.Endpoints[0].OpenDB()
	if err != nil {
		return ""
	}
	defer db.Close()
	var size, pool int64
	if err := db.QueryRowContext(ctx, "SELECT data_length + index_length FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'main1'").Scan(&size); err != nil {
		return ""
	}
	if err := db.QueryRowContext(ctx, "SELECT @@innodb_buffer_pool_size").Scan(&pool); err != nil {
		return ""
	}
	s := fmt.Sprintf("main1 holds %d MiB, the buffer pool %d MiB", size>>20, pool>>20)
	if size <= pool {
		s += ": the data fits in the pool, so uniform access is served from memory too; use a larger --table-size or a smaller --buffer-pool-size"
	}
	return s
}
