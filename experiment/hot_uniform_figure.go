package experiment

import (
	"fmt"
	"html/template"

	"github.com/joinbench/joinbench/analysis/render/plot"
)

// hotUniformRows are a forest row per share of writes: hot's throughput
// over uniform's, the geometric mean over the pairs of runs with its 95%
// interval, as the table's change.
func hotUniformRows(mixes []mixResult) []plot.ForestRow {
	var out []plot.ForestRow
	for _, m := range mixes {
		c := changeOf(m.uniform, m.hot)
		if c.N == 0 {
			continue
		}
		r := plot.ForestRow{Label: fmt.Sprintf("%d%% writes", m.writePercent), Mid: 1 + c.Mean, Color: "#2b6cb0",
			Title: fmt.Sprintf("%d%% writes: hot against uniform %s over %d pair(s)", m.writePercent, c, c.N)}
		if c.N > 1 {
			r.Low, r.High = 1+c.Low, 1+c.High
		}
		out = append(out, r)
	}
	return out
}

// hotUniformFigure draws hot against uniform per share of writes.
func hotUniformFigure(mixes []mixResult) []Figure {
	rows := hotUniformRows(mixes)
	if len(rows) == 0 {
		return nil
	}
	svg := plot.Forest{Title: "hot's throughput over uniform's, with its 95% interval", XLabel: "hot / uniform (log scale): right of 1, hot is faster",
		Rows: rows, W: 900}.SVG()
	return []Figure{{Caption: "A row per share of writes: the ratio of hot's executions per second to uniform's over the pairs of runs (the table's change plus one), its whisker the 95% interval; the dashed line is no difference.",
		SVG: template.HTML(svg)}}
}
