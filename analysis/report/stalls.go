package report

import (
	"math"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// ActionSide is what one run's actions cost: its stalls, and what a
// comparison of methods reads.
type ActionSide struct {
	Stalls *compare.ActionCosts
	Method *compare.MethodSide
}

// ReadActionCosts measures one run's actions; nil when it has none.
func ReadActionCosts(dir string, warn func(error)) (*ActionSide, error) {
	w := warner{List: new([]string), Fn: warn}
	info := results.ReadRunInfo(dir, w.Warn)
	if info == nil {
		return nil, nil
	}
	rows, err := results.ReadActions(dir, w.Warn)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	figs, err := readEndpoints(dir, info, rows, w.Warn)
	if err != nil {
		return nil, err
	}
	costs, baseline := figs.costs, figs.baseline
	s := &compare.ActionCosts{Endpoints: stall.WithAll(info.Endpoints), Specs: info.Actions}
	n := len(s.Endpoints)
	s.Longest, s.Total, s.Worst, s.Baseline = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	s.NoTraffic = make([]bool, n)
	for i := range s.NoTraffic {
		s.NoTraffic[i] = len(costs) > 0
	}
	for _, c := range costs {
		for i, e := range c.Endpoints[:min(n, len(c.Endpoints))] {
			s.NoTraffic[i] = s.NoTraffic[i] && e.NoTraffic
			s.Longest[i] = math.Max(s.Longest[i], e.LongestZeroWriteMs)
			s.Total[i] += e.LongestZeroWriteMs
			s.Worst[i] = math.Max(s.Worst[i], e.WorstLatencyMs)
		}
	}
	for i, b := range baseline[:min(n, len(baseline))] {
		s.Baseline[i] = b.LongestZeroWriteMs
	}
	m, err := methodSide(dir, info, rows, figs.rates, w)
	if err != nil {
		return nil, err
	}
	return &ActionSide{Stalls: s, Method: m}, nil
}
