package action

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinbench/joinbench/results"
)

// fakeJob does what its fields say, without a server.
type fakeJob struct {
	err     error
	ignores bool          // ignores its context: never stops
	started chan struct{} // closed when a job that ignores starts
	release chan struct{} // closed at the end of the test, for a job that ignores
}

func (j fakeJob) What(Target) string { return "fake" }

func (j fakeJob) Do(ctx context.Context, _ Site, out *Outcome) error {
	if j.ignores {
		close(j.started)
		<-j.release
		return nil
	}
	if j.err != nil {
		return j.err
	}
	out.Rows = 7
	return nil
}

var fakeKind = &Kind{Name: "fake", Syntax: "fake", Rolling: true}

func fakeAction(n int32, offset time.Duration, job Job, targets ...int) Action {
	a := Action{Spec: Spec{Text: "fake", Offset: offset, Kind: fakeKind, Job: job}, Number: n}
	for _, t := range targets {
		a.Targets = append(a.Targets, Target{Endpoint: t})
	}
	return a
}

type recorder struct {
	mu    sync.Mutex
	rows  []results.Action
	lines []string
}

func (r *recorder) env() Env {
	return Env{
		Endpoints:  []Endpoint{{Name: "a"}, {Name: "b"}},
		AbortAfter: 10 * time.Millisecond,
		Printf: func(format string, args ...any) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.lines = append(r.lines, strings.TrimSpace(strings.SplitN(fmt.Sprintf(format, args...), "]", 2)[1]))
		},
		Record: func(rows []results.Action) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.rows = rows
			return nil
		},
	}
}

// waitRows waits until the last rows recorded are n, failing the test
// after a minute rather than hanging the suite.
func (r *recorder) waitRows(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		r.mu.Lock()
		got := len(r.rows)
		r.mu.Unlock()
		if got == n {
			return
		}
	}
	t.Fatalf("the rows recorded last are not %d after a minute", n)
}

// The runner records every action's rows: done, failed (a rolling change
// stops there), skipped (never reached), and unstopped (still running
// past its bound once stopped).
func TestRunner(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	rec := &recorder{}
	start := time.Now()
	r := Start(context.Background(), rec.env(), []Action{
		fakeAction(1, 0, fakeJob{}, 0),
		fakeAction(2, 0, fakeJob{err: errors.New("no")}, 0, 1),
		fakeAction(3, time.Hour, fakeJob{}, 1),
		fakeAction(4, 0, fakeJob{ignores: true, started: started, release: release}, 1),
	}, start, time.Time{})
	<-started
	rec.waitRows(t, 3) // 1, and both steps of 2
	rows := r.Stop()
	want := []struct {
		action, step int32
		outcome      string
	}{{1, 1, results.ActionOK}, {2, 1, results.ActionFailed}, {2, 2, results.ActionSkipped}, {3, 1, results.ActionSkipped}, {4, 1, results.ActionUnstopped}}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v", rows)
	}
	for i, w := range want {
		if g := rows[i]; g.Action != w.action || g.Step != w.step || g.Outcome != w.outcome {
			t.Errorf("row %d: %d.%d %s, want %d.%d %s", i, g.Action, g.Step, g.Outcome, w.action, w.step, w.outcome)
		}
	}
	if rows[0].Rows != 7 || rows[0].Endpoint != "a" || rows[1].ErrorCode != -1 || rows[1].ErrorMessage != "no" ||
		!strings.Contains(rows[2].ErrorMessage, "failed on an earlier node") || rows[3].Endpoint != "b" ||
		!strings.Contains(rows[4].ErrorMessage, "did not stop within") {
		t.Errorf("rows %+v", rows)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.rows) != 5 {
		t.Errorf("recorded %d rows, want 5", len(rec.rows))
	}
	for _, line := range []string{"action 1 on a: fake: fake", "action 1 on a: fake ok after", "action 2 on a: fake failed after", "action 4 on b: fake did not stop within"} {
		found := false
		for _, l := range rec.lines {
			found = found || strings.HasPrefix(l, line)
		}
		if !found {
			t.Errorf("no line %q in %q", line, rec.lines)
		}
	}
}

func TestNoRunner(t *testing.T) {
	if r := Start(context.Background(), Env{}, nil, time.Now(), time.Time{}); r != nil || r.Stop() != nil {
		t.Error("a run without actions has a runner")
	}
}

// groupJob is an AllAtOnce job that notes each of its targets.
type groupJob struct{ fakeJob }

func (j groupJob) DoAll(_ context.Context, at []Site, outs []*Outcome) error {
	for i, out := range outs {
		out.Output = fmt.Sprint("site ", at[i].Endpoint)
	}
	return j.err
}

var groupKind = &Kind{Name: "group", Syntax: "group", AllAtOnce: true}

// On "all", an AllAtOnce kind's job runs once for every target, and every
// target gets its row, each with the job's outcome.
func TestRunnerAllAtOnce(t *testing.T) {
	rec := &recorder{}
	acts := []Action{
		{Spec: Spec{Text: "g", Target: AllEndpoints, Kind: groupKind, Job: groupJob{}}, Number: 1, Targets: []Target{{Endpoint: 0}, {Endpoint: 1}}},
		{Spec: Spec{Text: "g", Target: AllEndpoints, Kind: groupKind, Job: groupJob{fakeJob{err: errors.New("no")}}}, Number: 2, Targets: []Target{{Endpoint: 0}, {Endpoint: 1}}},
	}
	r := Start(context.Background(), rec.env(), acts, time.Now(), time.Time{})
	rec.waitRows(t, 4)
	rows := r.Stop()
	want := []string{"1.1 ok site 0 a", "1.2 ok site 1 b", "2.1 failed site 0 a", "2.2 failed site 1 b"}
	for i, w := range want {
		g := rows[i]
		if got := fmt.Sprintf("%d.%d %s %s %s", g.Action, g.Step, g.Outcome, g.Output, g.Endpoint); got != w {
			t.Errorf("row %d: %s, want %s", i, got, w)
		}
	}
	if !rows[0].Start.Equal(rows[1].Start) || rows[0].End.IsZero() {
		t.Errorf("the rows of one job at once start together: %v, %v", rows[0].Start, rows[1].Start)
	}
}
