package action

import (
	"context"
	"testing"
	"time"

	"github.com/joinbench/joinbench/results"
)

// Actions timed from an origin wait for it, whatever the phase's start
// says, and are planned from it once it is set: the workload's late start
// shifts them. One never reached before Stop is skipped, planned from the
// phase's start.
func TestActionsTimedFromTheirOrigin(t *testing.T) {
	rec := &recorder{}
	phaseStart := time.Now().Add(-time.Hour) // an action timed from it would be long due
	origin := NewOrigin()
	r := StartFrom(context.Background(), rec.env(), []Action{fakeAction(1, 0, fakeJob{}, 0)}, phaseStart, origin, time.Time{})
	rec.mu.Lock()
	early := len(rec.rows)
	rec.mu.Unlock()
	if early != 0 {
		t.Fatalf("an action ran before its origin was set: %+v", rec.rows)
	}
	at := time.Now()
	origin.Set(at)
	origin.Set(at.Add(time.Hour)) // only the first counts
	rec.waitRows(t, 1)
	rows := r.Stop()
	if len(rows) != 1 || rows[0].Outcome != results.ActionOK || !rows[0].Planned.Equal(at) {
		t.Errorf("rows %+v, want one ok, planned at the origin %s", rows, at)
	}

	never := StartFrom(context.Background(), rec.env(), []Action{fakeAction(1, 0, fakeJob{}, 0)}, phaseStart, NewOrigin(), time.Time{})
	rows = never.Stop()
	if len(rows) != 1 || rows[0].Outcome != results.ActionSkipped || !rows[0].Planned.Equal(phaseStart) {
		t.Errorf("rows %+v, want one skipped, planned from the phase's start", rows)
	}
}

// Wait returns the first origin set, and ctx's error when ctx ends before
// one is.
func TestOriginWait(t *testing.T) {
	o := NewOrigin()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := o.Wait(ctx); err == nil {
		t.Error("Wait on an unset origin with an ended ctx returned no error")
	}
	at := time.Now()
	go func() { o.Set(at); o.Set(at.Add(time.Hour)) }()
	got, err := o.Wait(context.Background())
	if err != nil || !got.Equal(at) {
		t.Errorf("Wait = %s, %v; want %s", got, err, at)
	}
}
