package action

import (
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
