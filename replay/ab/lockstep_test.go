package ab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// TestLockstepRecordsSlices: one run per side, both at once in one
// lockstep, each lasting every slice, its run.json saying it holds the
// side's rounds as slices.
func TestLockstepRecordsSlices(t *testing.T) {
	f := &fakeRuns{t: t}
	res, err := f.experiment(Statements, 3).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.runs) != 2 {
		t.Fatalf("%d runs, want one per side", len(f.runs))
	}
	var steps [2]*replay.LockstepSide
	for _, r := range f.runs {
		steps[r.side] = r.o.Lockstep
		if r.o.Time != results.Duration(3*time.Second) || r.o.Warmup != results.Duration(200*time.Millisecond) ||
			r.o.RunID != "s-"+r.side.Name() || r.o.Out != res.SideDir(r.side) || r.o.Progress != nil || r.o.Log == nil {
			t.Errorf("%s: options %+v", r.side.Name(), r.o)
		}
	}
	if steps[0] == nil || steps[1] == nil || steps[0] == steps[1] {
		t.Errorf("lockstep sides %p %p: want one each", steps[0], steps[1])
	}
	for _, side := range sides {
		if len(res.Runs[side]) != 1 || filepath.Base(res.Runs[side][0]) != "run=s-"+side.Name() {
			t.Fatalf("%s: runs %v", side.Name(), res.Runs[side])
		}
		info := results.ReadRunInfo(res.Runs[side][0], nil)
		want := results.Replicate{Series: "s", Side: side.Name(), Rounds: 3, Slice: results.Duration(time.Second)}
		if info == nil || info.Replicate == nil || *info.Replicate != want {
			t.Errorf("%s: %+v, want replicate %+v", side.Name(), info, want)
		}
	}
}

// TestLockstepFailureStopsTheOther: a side that fails stops the other,
// which would wait for it forever, and the error is the failed side's.
func TestLockstepFailureStopsTheOther(t *testing.T) {
	unreachable := errors.New("unreachable")
	f := &fakeRuns{t: t, fail: func(ctx context.Context, side Side) error {
		if side == Candidate {
			return unreachable
		}
		<-ctx.Done() // as the engine's wait for the other side
		return fmt.Errorf("waiting for the other server's run to start: %w", context.Cause(ctx))
	}}
	_, err := f.experiment(Statements, 2).Run(context.Background())
	if !errors.Is(err, unreachable) || !strings.HasPrefix(err.Error(), "candidate (c:2): ") {
		t.Fatalf("error %v", err)
	}
}

// TestLockstepInterrupted: an interruption keeps what was recorded but
// is an error.
func TestLockstepInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := &fakeRuns{t: t}
	e := f.experiment(Statements, 2)
	_, err := e.Run(ctx)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "ab interrupted") {
		t.Fatalf("error %v", err)
	}
	// The runs keep their replicate: a comparison reads their slices.
	for _, side := range sides {
		dir := filepath.Join(e.Out, "ab=s", "side="+side.Name(), "run=s-"+side.Name())
		if info := results.ReadRunInfo(dir, nil); info == nil || info.Replicate == nil || info.Replicate.Slice != results.Duration(time.Second) {
			t.Errorf("%s: run.json %+v", side.Name(), info)
		}
	}
}

func TestLockstepNoExecution(t *testing.T) {
	f := &fakeRuns{t: t, executions: func(side Side, _ replay.Options) int64 {
		return int64(side) * 5 // none on the base
	}}
	_, err := f.experiment(Statements, 2).Run(context.Background())
	if err == nil || err.Error() != "base (b:1): the run recorded no execution" {
		t.Fatalf("error %v", err)
	}
}

func TestPrefixWriter(t *testing.T) {
	var b bytes.Buffer
	w := prefixWriter{w: &b, prefix: "ab: base: "}
	for _, s := range []string{"one\n", "two\nthree\n", "four"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q): %d, %v", s, n, err)
		}
	}
	if want := "ab: base: one\nab: base: two\nab: base: three\nab: base: four\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
