package report

import (
	"fmt"
	"math"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// actionSide is what one run's actions cost: its stalls, and what a
// comparison of methods reads.
type actionSide struct {
	stalls *compare.ActionCosts
	method *compare.MethodSide
}

// readActionCosts measures one run's actions; nil when it has none.
func readActionCosts(dir string, w warner) (*actionSide, error) {
	info := results.ReadRunInfo(dir, w.warn)
	if info == nil {
		return nil, nil
	}
	rows, err := results.ReadActions(dir, w.warn)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	figs, err := readEndpoints(dir, info, rows, w.warn)
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
	return &actionSide{stalls: s, method: m}, nil
}

// compareActions compares the actions' cost of the first run of each
// side: their stalls, and, when the runs differ by their actions, their
// methods; nil when either has no actions.
func compareActions(baseDirs, candDirs []string, w warner) (*compare.StallComparison, *compare.MethodComparison, error) {
	if len(baseDirs) == 0 || len(candDirs) == 0 {
		return nil, nil, nil
	}
	b, err := readActionCosts(baseDirs[0], w)
	if err != nil || b == nil {
		return nil, nil, err
	}
	c, err := readActionCosts(candDirs[0], w)
	if err != nil || c == nil {
		return nil, nil, err
	}
	if len(baseDirs) > 1 || len(candDirs) > 1 {
		w.warn(fmt.Errorf("stall times compare the first run of each side only"))
	}
	sc, warnings := compare.Stalls(b.stalls, c.stalls)
	for _, err := range warnings {
		w.warn(err)
	}
	if !compare.DifferentActions(b.stalls.Specs, c.stalls.Specs) {
		return sc, nil, nil
	}
	return sc, compare.Methods(b.method, c.method, sc.Verdict), nil
}
