package judge

import (
	"fmt"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/report"
)

// compareActions compares the actions' cost of the first run of each
// side: their stalls, and, when the runs differ by their actions, their
// methods; nil when either has no actions.
func compareActions(baseDirs, candDirs []string, w warner) (*compare.StallComparison, *compare.MethodComparison, error) {
	if len(baseDirs) == 0 || len(candDirs) == 0 {
		return nil, nil, nil
	}
	b, err := report.ReadActionCosts(baseDirs[0], w.Warn)
	if err != nil || b == nil {
		return nil, nil, err
	}
	c, err := report.ReadActionCosts(candDirs[0], w.Warn)
	if err != nil || c == nil {
		return nil, nil, err
	}
	if len(baseDirs) > 1 || len(candDirs) > 1 {
		w.Warn(fmt.Errorf("stall times compare the first run of each side only"))
	}
	sc, warnings := compare.Stalls(b.Stalls, c.Stalls)
	for _, err := range warnings {
		w.Warn(err)
	}
	if !compare.DifferentActions(b.Stalls.Specs, c.Stalls.Specs) {
		return sc, nil, nil
	}
	return sc, compare.Methods(b.Method, c.Method, sc.Verdict), nil
}
