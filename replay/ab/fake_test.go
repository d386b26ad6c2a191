package ab

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// fakeRuns stands in for the runs on a server: each writes a run folder
// with only a run.json, counting the executions executions returns, and is
// remembered.
type fakeRuns struct {
	t          *testing.T
	executions func(side Side, o replay.Options) int64
	fail       func(ctx context.Context, side Side) error

	mu   sync.Mutex
	runs []fakeRun
}

type fakeRun struct {
	side Side
	o    replay.Options
}

func (f *fakeRuns) run(ctx context.Context, side Side, o replay.Options) (string, error) {
	f.mu.Lock()
	f.runs = append(f.runs, fakeRun{side, o})
	f.mu.Unlock()
	if f.fail != nil {
		if err := f.fail(ctx, side); err != nil {
			return "", err
		}
	}
	d, err := results.Create(o.Out, o.RunID, "h")
	if err != nil {
		return "", fmt.Errorf("fake run: %w", err)
	}
	n := int64(10)
	if f.executions != nil {
		n = f.executions(side, o)
	}
	start := time.Unix(100, 0).UTC()
	r := &results.Run{RunID: o.RunID, Start: start, End: start.Add(time.Duration(o.Time)), Executions: n}
	if err := d.WriteRun(r); err != nil {
		return "", err
	}
	if err := d.Close(); err != nil {
		return "", err
	}
	return d.Path(), nil
}

// experiment is an experiment of the given rounds on fake runs, its
// workload 1s rounds after a 200ms warm-up.
func (f *fakeRuns) experiment(mode Interleave, rounds int) *Experiment {
	w := replay.Options{RunOptions: results.RunOptions{Threads: 2, Time: results.Duration(time.Second), Warmup: results.Duration(200 * time.Millisecond)}}
	return &Experiment{Series: "s", Out: f.t.TempDir(), Interleave: mode, Rounds: rounds, Workload: w,
		Labels: [2]string{"b:1", "c:2"}, RunOn: f.run}
}
