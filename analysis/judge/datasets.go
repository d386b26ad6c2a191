package judge

import (
	"errors"
	"fmt"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/results"
)

// checkDatasets compares the data the runs of a comparison ran on, from
// their run.json alone, before anything else is read: the runs of each
// side with its first, then the two sides' first runs. Different data is
// the error (a *compare.DatasetsDiffer) unless allowed, when it is a
// warning like the others (data changed since prepare, or not recorded).
func checkDatasets(baseDirs, candDirs []string, allow bool, w warner) error {
	var firsts [2]*results.Dataset
	for s, dirs := range [][]string{baseDirs, candDirs} {
		name := []string{results.SideBase, results.SideCandidate}[s]
		warned := false // once per side: every later round of a writing workload differs alike
		for i, d := range dirs {
			var ds *results.Dataset
			if info := results.ReadRunInfo(d, nil); info != nil {
				ds = info.Dataset
			}
			if i == 0 {
				firsts[s] = ds
				continue
			}
			err := compare.SameDataset(fmt.Sprintf("the %s's run %s", name, dirs[0]), fmt.Sprintf("its run %s", d), firsts[s], ds)
			var differ *compare.DatasetsDiffer
			if warned && !errors.As(err, &differ) {
				continue
			}
			warned = warned || err != nil
			if err := datasetProblem(err, allow, w); err != nil {
				return err
			}
		}
	}
	return datasetProblem(compare.SameDataset("the base", "the candidate", firsts[0], firsts[1]), allow, w)
}

// datasetProblem returns err when it is different data not allowed, and
// warns about it otherwise.
func datasetProblem(err error, allow bool, w warner) error {
	var differ *compare.DatasetsDiffer
	if errors.As(err, &differ) && !allow {
		return err
	}
	w.WarnIf(err)
	return nil
}
