package action

import (
	"context"
	"sync"
	"time"
)

// Origin is the moment a run's actions are timed from when it is only
// known once the run is under way (the workload's first successful
// execution): set once by the engine, waited for by every action.
type Origin struct {
	once sync.Once
	set  chan struct{}
	at   time.Time
}

// NewOrigin is an origin not set yet.
func NewOrigin() *Origin { return &Origin{set: make(chan struct{})} }

// Set sets the origin to t; only the first call counts.
func (o *Origin) Set(t time.Time) {
	o.once.Do(func() {
		o.at = t
		close(o.set)
	})
}

// Wait returns the origin once it is set, or ctx's error if ctx ends
// first: what a caller outside the run (the restore lesson) times its own
// quiet window from.
func (o *Origin) Wait(ctx context.Context) (time.Time, error) {
	select {
	case <-o.set:
		return o.at, nil
	case <-ctx.Done():
		return time.Time{}, context.Cause(ctx)
	}
}
