package report

import (
	"runtime"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// A run is read on every core. Each worker of the column scan adds the row
// groups it decodes into a partial accumulator of its own (addColumns):
// counts, histograms, windows, timelines, plans and templates, whose sums
// do not depend on the order of the rows, and the slowest rows and first
// errors, which ties order by their place in the files. The partials are
// merged when the run is read, exactly: histograms add counts bucket by
// bucket, windows take the smallest start and the largest end, and
// timelines are brought to the bucket width the whole run needs. What
// depends on the order of the rows (the seeded latency samples, and the
// checksums that keep the first result of a parameter set) is added in
// file order on the caller's goroutine (addInOrder), and only for a
// comparison. The figures are those of adding the rows one at a time in
// file order.

// scanWorkers is the number of files read and accumulated at once; 0 means
// GOMAXPROCS, at most maxScanWorkers. Tests set it to exercise the merge.
var scanWorkers = 0

// maxScanWorkers bounds the partial accumulators, each of which holds a
// histogram and a timeline per scenario: on a machine of many cores,
// memory stays a small multiple of what one accumulator takes.
const maxScanWorkers = 8

func accWorkers() int {
	if scanWorkers > 0 {
		return scanWorkers
	}
	return min(runtime.GOMAXPROCS(0), maxScanWorkers)
}

// scanRun reads a run's executions into acc by columns; tests set it to
// the row-by-row reading the column path must agree with.
var scanRun = func(r *runAcc, dir string, warn results.Warner) (int, error) {
	workers := accWorkers()
	parts := make([]*runAcc, workers)
	opt := results.ColumnScan{
		// No report or comparison shows the rows returned (only a checksum
		// needs them, and its row groups are read whole): the metrics' Rows
		// stay 0. Templates only tell a comparison that a scenario changed.
		Checksums: r.checks, SkipTemplates: !r.checks, SkipRows: true, Workers: workers,
		Each: func(w int, c *results.ExecutionColumns) error {
			if parts[w] == nil {
				parts[w] = r.partial()
			}
			return parts[w].addColumns(c)
		},
	}
	var inOrder func(*results.ExecutionColumns) error
	if r.checks {
		inOrder = r.addInOrder
	}
	n, err := results.ScanExecutionColumns(dir, warn, opt, inOrder)
	for _, p := range parts {
		if p != nil {
			r.merge(p)
		}
	}
	return n, err
}

// partial returns an empty accumulator for one worker's share of a run.
func (r *runAcc) partial() *runAcc {
	p := newRunAcc(r.checks)
	p.timelines = r.timelines
	return p
}

// merge adds the order-free figures of partial p into r.
func (r *runAcc) merge(p *runAcc) {
	for name, pa := range p.scenarios {
		a := r.scenarios[name]
		if a == nil {
			// Samples and checksums come from addInOrder into r's own
			// accumulators: a scenario only p has has none.
			r.scenarios[name] = pa
			continue
		}
		// What a has nothing of yet is taken over rather than copied: no
		// second histogram is made.
		if a.m.Executions == 0 {
			a.m = pa.m
		} else {
			a.m.Merge(&pa.m)
		}
		if len(a.tl.buckets) == 0 {
			a.tl = pa.tl
		} else {
			a.tl.timeSeries.merge(&pa.tl.timeSeries)
		}
		if len(a.plans) == 0 {
			a.plans = pa.plans
		} else {
			for h, n := range pa.plans {
				a.plans[h] += n
			}
		}
		if len(a.templates) == 0 {
			a.templates = pa.templates
		} else {
			for h := range pa.templates {
				a.templates[h] = true
			}
		}
		a.slow.merge(&pa.slow)
		a.firstErr.merge(pa.firstErr)
	}
	r.cut.merge(p.cut)
}

// merge adds the buckets of o into s. Both hold buckets aligned on the
// epoch, of widths 1 s << k, so o's buckets fall whole into s's once s is
// at least as wide. s then coarsens until it holds maxBuckets buckets at
// most: the width it ends at is the smallest that fits every time of both,
// which is the width adding the times one by one ends at, whatever their
// order.
func (s *timeSeries[B]) merge(o *timeSeries[B]) {
	if len(o.buckets) == 0 {
		return
	}
	for s.width < o.width {
		s.coarsen()
	}
	f := s.width / o.width
	for k, b := range o.buckets {
		nk := floorDiv(k, f)
		if into := s.buckets[nk]; into != nil {
			s.mergeFn(into, b)
		} else {
			s.buckets[nk] = b
		}
	}
	o.buckets, o.last = nil, nil // s owns them now
	s.last = nil
	for len(s.buckets) > maxBuckets {
		s.coarsen()
	}
}

// clone is a copy of s whose buckets are its own (merge takes o's).
func (s *timeSeries[B]) clone() *timeSeries[B] {
	c := newSeries(s.newFn, s.mergeFn)
	c.width = s.width
	for k, b := range s.buckets {
		nb := s.newFn()
		s.mergeFn(nb, b)
		c.buckets[k] = nb
	}
	return &c
}

// addInOrder accumulates what depends on the order of rows, one row group
// at a time in file order: the result checksums (the first of a parameter
// set is kept).
func (r *runAcc) addInOrder(c *results.ExecutionColumns) error {
	withSums := r.checks && c.Checksum != nil
	if !withSums {
		return nil
	}
	slots := resize(r.slots, len(c.Scenario.Values))
	r.slots = slots
	for i, code := range c.ErrorCode {
		if code != 0 {
			continue
		}
		si := c.Scenario.Index[i]
		a := slots[si]
		if a == nil {
			a = r.scenario(c.Scenario.Values[si])
			slots[si] = a
		}
		if c.Checksum[i] != "" {
			a.checks.add(c.Params[i], c.Checksum[i], c.Rows[i])
			if r.onChecksum != nil {
				r.onChecksum(a, c.Params[i], c.Checksum[i])
			}
		}
	}
	return nil
}

// cloneParams copies parameters to keep them: those of a row group share
// the memory of their page, which keeping one would keep whole.
func cloneParams(params []string) []string {
	out := make([]string, len(params))
	for i, p := range params {
		out[i] = strings.Clone(p)
	}
	return out
}
