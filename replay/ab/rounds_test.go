package ab

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

func TestRoundOrder(t *testing.T) {
	want := []slot{
		{Base, 1, 1}, {Candidate, 1, 2},
		{Candidate, 2, 3}, {Base, 2, 4},
		{Base, 3, 5}, {Candidate, 3, 6},
	}
	got := roundOrder(3)
	if len(got) != len(want) {
		t.Fatalf("roundOrder(3): %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("roundOrder(3)[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestRoundsRecordReplicates: each round is a run of its own in its
// side's folder, with its side, round and place in the series in
// run.json, and the folders come back per side in round order.
func TestRoundsRecordReplicates(t *testing.T) {
	f := &fakeRuns{t: t}
	e := f.experiment(Rounds, 2)
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(e.Out, "ab=s"); res.Dir != want || res.SideDir(Candidate) != filepath.Join(want, "side=candidate") {
		t.Fatalf("folders %s, %s", res.Dir, res.SideDir(Candidate))
	}
	var ids []string
	for _, r := range f.runs {
		ids = append(ids, r.o.RunID)
		if r.o.Out != res.SideDir(r.side) || r.o.Lockstep != nil || r.o.Progress != nil || r.o.Log == nil ||
			r.o.Warmup != e.Workload.Warmup || r.o.Time != e.Workload.Time {
			t.Errorf("%s: options %+v", r.o.RunID, r.o)
		}
	}
	if got := strings.Join(ids, " "); got != "s-base-01 s-candidate-01 s-candidate-02 s-base-02" {
		t.Errorf("runs in the order %s", got)
	}
	for _, side := range sides {
		if len(res.Runs[side]) != 2 {
			t.Fatalf("%s: runs %v", side.Name(), res.Runs[side])
		}
		for k, dir := range res.Runs[side] {
			info := results.ReadRunInfo(dir, nil)
			want := results.Replicate{Series: "s", Side: side.Name(), Round: k + 1, Rounds: 2,
				Order: []int{1, 4, 2, 3}[int(side)*2+k]} // base, candidate, candidate, base
			if info == nil || info.Replicate == nil || *info.Replicate != want || filepath.Base(dir) != "run="+roundRunID("s", side, k+1) {
				t.Errorf("%s: %+v, want replicate %+v", dir, info, want)
			}
		}
	}
}

// TestRoundsWithoutWarmup: a round that recorded nothing after its
// warm-up runs again without one, and so does every later round of both
// sides; only the run that recorded something is kept.
func TestRoundsWithoutWarmup(t *testing.T) {
	f := &fakeRuns{t: t, executions: func(_ Side, o replay.Options) int64 {
		if o.Warmup > 0 {
			return 0
		}
		return 1
	}}
	res, err := f.experiment(Rounds, 2).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.runs {
		got = append(got, r.o.RunID+"/"+r.o.Warmup.String())
	}
	if s := strings.Join(got, " "); s != "s-base-01/200ms s-base-01/0s s-candidate-01/0s s-candidate-02/0s s-base-02/0s" {
		t.Errorf("runs: %s", s)
	}
	for _, side := range sides {
		for _, dir := range res.Runs[side] {
			if info := results.ReadRunInfo(dir, nil); info == nil || info.Executions != 1 || info.Replicate == nil {
				t.Errorf("%s: %+v", dir, info)
			}
		}
	}
}

// TestRoundsFailure: a round that fails ends the experiment, its error
// naming the round, the side and its server.
func TestRoundsFailure(t *testing.T) {
	boom := errors.New("boom")
	f := &fakeRuns{t: t}
	f.fail = func(_ context.Context, side Side) error {
		if side == Candidate && len(f.runs) == 3 {
			return boom
		}
		return nil
	}
	_, err := f.experiment(Rounds, 3).Run(context.Background())
	if !errors.Is(err, boom) || err.Error() != "round 2 of candidate (c:2): boom" {
		t.Fatalf("error %v", err)
	}
	if len(f.runs) != 3 {
		t.Errorf("%d runs after the failure, want 3", len(f.runs))
	}
}

func TestExperimentRefusesNoRounds(t *testing.T) {
	f := &fakeRuns{t: t}
	for _, e := range []*Experiment{f.experiment(Rounds, 0), f.experiment("sometimes", 1), {Rounds: 1}} {
		if _, err := e.Run(context.Background()); err == nil {
			t.Errorf("%+v: no error", e)
		}
	}
	if len(f.runs) != 0 {
		t.Errorf("%d runs made", len(f.runs))
	}
}

// TestRoundsServerFailure: a side whose server fails after it answered a
// round is a ServerError (a failure, not the user's mistake), even when
// the failure reads like one (cannot connect); one that fails at its first
// round is not.
func TestRoundsServerFailure(t *testing.T) {
	unreachable := usage.Errorf("cannot reach c:2")
	for _, c := range []struct {
		failAt int // the run of the series that fails (from 1)
		server bool
	}{{2, false}, {3, true}} {
		f := &fakeRuns{t: t}
		f.fail = func(_ context.Context, side Side) error {
			if len(f.runs) == c.failAt {
				return unreachable
			}
			return nil
		}
		_, err := f.experiment(Rounds, 3).Run(context.Background())
		var se *ServerError
		if !errors.Is(err, unreachable) || errors.As(err, &se) != c.server || (c.server && se.Side != Candidate) {
			t.Errorf("run %d fails: %v (a server error: %v)", c.failAt, err, errors.As(err, &se))
		}
	}
}

// TestRoundsInterrupted: an interruption stops the experiment after the
// round it cut short, whose folder keeps its replicate.
func TestRoundsInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeRuns{t: t}
	f.fail = func(context.Context, Side) error {
		if len(f.runs) == 2 {
			cancel()
		}
		return nil
	}
	_, err := f.experiment(Rounds, 3).Run(ctx)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "ab interrupted") {
		t.Fatalf("error %v", err)
	}
	if len(f.runs) != 2 {
		t.Errorf("%d runs, want none after the interruption", len(f.runs))
	}
	dir := filepath.Join(f.runs[1].o.Out, "run="+f.runs[1].o.RunID)
	if info := results.ReadRunInfo(dir, nil); info == nil || info.Replicate == nil || info.Replicate.Round != 1 {
		t.Errorf("the interrupted round's run.json: %+v", info)
	}
}
