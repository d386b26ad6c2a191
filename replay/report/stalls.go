package report

import (
	"fmt"
	"math"

	"github.com/joinbench/joinbench/replay/compare"
	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/stall"
)

// readStalls measures one run's actions; nil when it has none.
func readStalls(dir string, w warner) (*compare.ActionCosts, error) {
	info := results.ReadRunInfo(dir, w.warn)
	if info == nil {
		return nil, nil
	}
	rows, err := results.ReadActions(dir, w.warn)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	_, costs, baseline, err := readEndpoints(dir, info, rows, w.warn)
	if err != nil {
		return nil, err
	}
	s := &compare.ActionCosts{Endpoints: stall.WithAll(info.Endpoints), Specs: info.Actions}
	n := len(s.Endpoints)
	s.Longest, s.Total, s.Worst, s.Baseline = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for _, c := range costs {
		for i, e := range c.Endpoints[:min(n, len(c.Endpoints))] {
			s.Longest[i] = math.Max(s.Longest[i], e.LongestZeroWriteMs)
			s.Total[i] += e.LongestZeroWriteMs
			s.Worst[i] = math.Max(s.Worst[i], e.WorstLatencyMs)
		}
	}
	for i, b := range baseline[:min(n, len(baseline))] {
		s.Baseline[i] = b.LongestZeroWriteMs
	}
	return s, nil
}

// compareStalls compares the actions' cost of the first run of each side;
// nil when either has no actions.
func compareStalls(baseDirs, candDirs []string, w warner) (*compare.StallComparison, error) {
	if len(baseDirs) == 0 || len(candDirs) == 0 {
		return nil, nil
	}
	b, err := readStalls(baseDirs[0], w)
	if err != nil || b == nil {
		return nil, err
	}
	c, err := readStalls(candDirs[0], w)
	if err != nil || c == nil {
		return nil, err
	}
	if len(baseDirs) > 1 || len(candDirs) > 1 {
		w.warn(fmt.Errorf("stall times compare the first run of each side only"))
	}
	sc, warnings := compare.Stalls(b, c)
	for _, err := range warnings {
		w.warn(err)
	}
	return sc, nil
}
