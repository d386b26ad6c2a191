package compare

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// WorkComparable says why the work of two sides cannot be compared, ""
// when it can: both sides sampled work, with the same seed and the same
// parameters' domain (so that they ran the same statements with the same
// values), and neither wrote (a write changes the rows later reads see,
// by an amount that depends on timing). base and cand are the run.json
// of every run of each side; baseSamples and candSamples how many work
// samples each side holds.
func WorkComparable(base, cand []*results.Run, baseSamples, candSamples int) string {
	switch {
	case baseSamples == 0 && candSamples == 0:
		return "neither side recorded work samples (runs made with --work off, or before work was sampled)"
	case baseSamples == 0:
		return "the base recorded no work samples (runs made with --work off, or before work was sampled)"
	case candSamples == 0:
		return "the candidate recorded no work samples (runs made with --work off, or before work was sampled)"
	}
	var writes []string
	var first *results.RunOptions
	for _, r := range append(slices.Clone(base), cand...) {
		if r == nil {
			continue
		}
		writes = append(writes, r.WriteScenarios...)
		o := r.Options
		if o == nil {
			continue
		}
		if first == nil {
			first = o
			continue
		}
		for _, d := range []struct {
			key  string
			a, b any
		}{
			{"seed", first.Seed, o.Seed}, {"tables", first.Tables, o.Tables}, {"table_size", first.TableSize, o.TableSize},
			{"table_name", first.TableName, o.TableName}, {"distribution", first.Distribution, o.Distribution},
		} {
			if d.a != d.b && first.Recorded(d.key) && o.Recorded(d.key) {
				return fmt.Sprintf("the runs were made with different --%s (%v and %v): they ran other statements or values",
					strings.ReplaceAll(d.key, "_", "-"), d.a, d.b)
			}
		}
	}
	if why := sameData(base, cand); why != "" {
		return why
	}
	if writes = slices.Compact(slices.Sorted(slices.Values(writes))); len(writes) > 0 {
		return fmt.Sprintf("the runs wrote (%s): the rows the reads see, and so their work, depend on when the writes ran", strings.Join(writes, ", "))
	}
	return ""
}

// sameData says why the runs may not have read the same rows, "" when
// every run recorded the same dataset (or none recorded one).
func sameData(base, cand []*results.Run) string {
	var first *results.Run
	for _, r := range append(slices.Clone(base), cand...) {
		if r == nil {
			continue
		}
		if first == nil {
			first = r
			continue
		}
		var differ *DatasetsDiffer
		var modified *DataModified
		var unknown *DatasetUnknown
		switch err := SameDataset("run "+first.RunID, "run "+r.RunID, first.Dataset, r.Dataset); {
		case errors.As(err, &differ):
			return "the runs ran on different data (" + strings.Join(differ.Differences, "; ") + ")"
		case errors.As(err, &modified) && len(modified.Differences) > 0:
			return "the data differ between " + modified.Between + " when they started (" + strings.Join(modified.Differences, "; ") +
				"): the reads saw other rows"
		case errors.As(err, &modified):
			return "the data changed since it was prepared (a sample of its rows differs between " + modified.Between + "): the reads saw other rows"
		case errors.As(err, &unknown):
			return unknown.Run + " records no dataset, so that the data cannot be told the same"
		}
	}
	return ""
}

// workNote says how work was compared, for the comparison's notes; why it
// was not is WorkSkipped, which every view shows.
func workNote(c *Comparison) []string {
	if c.WorkSkipped != "" {
		return nil
	}
	pairs, scenarios := 0, 0
	for _, s := range c.Scenarios {
		if s.Work != nil {
			pairs += s.Work.Pairs
			scenarios++
		}
	}
	if scenarios == 0 {
		return nil
	}
	return []string{fmt.Sprintf("work compared on %d pairs of samples of %d scenario(s), the same executions with the same values on both sides: "+
		"a scenario whose rows examined, index lookups, page requests or join buffer comparisons per execution grew %.3gx and by %d or more is a regression, "+
		"whatever its time (--work-bound)", pairs, scenarios, c.WorkBound, WorkMinDelta)}
}
