package replay

import (
	"math"
	"time"
)

// Pacer schedules events of an open-loop (paced) run: Intended returns when
// event number i (from 0) should start, as an offset from the start of the
// phase. Latency of a paced statement is measured from its intended start,
// so time spent waiting for a free worker is counted, not hidden.
type Pacer interface {
	Intended(i int64) time.Duration
}

// ConstantPacer starts Rate events per second, evenly spaced.
type ConstantPacer struct{ Rate float64 }

// Intended implements Pacer: event i is due at i/Rate seconds.
func (p ConstantPacer) Intended(i int64) time.Duration {
	if p.Rate <= 0 {
		return 0
	}
	d := float64(i) * float64(time.Second) / p.Rate
	if d > math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(d)
}

// SegmentPacer is the share of a ConstantPacer of Rate that segment Index
// (from 0) of Count paces: the events of the whole whose number modulo
// Count is Index, so that the segments together start the events of one
// ConstantPacer, interleaved.
type SegmentPacer struct {
	Rate         float64
	Index, Count int64
}

// Intended implements Pacer: the segment's event i is the whole's event
// i*Count+Index.
func (p SegmentPacer) Intended(i int64) time.Duration {
	return ConstantPacer{Rate: p.Rate}.Intended(i*p.Count + p.Index)
}
