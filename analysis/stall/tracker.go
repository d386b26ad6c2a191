package stall

import (
	"slices"
	"time"
)

// Resolution is the width of a slot of time at the start.
const Resolution = 10 * time.Millisecond

// maxSlots bounds the slots per endpoint: past it, slots double in width.
const maxSlots = 1 << 20

// Tracker records the writes of a run, per endpoint. It is not safe for
// concurrent use.
type Tracker struct {
	origin time.Time
	width  time.Duration
	eps    map[string]*series
}

// series is one endpoint's slots, from the tracker's origin.
type series struct {
	done    []bool  // a write completed successfully in the slot
	longest []int64 // ns: the longest write (failed ones too) that started in the slot
	maxLat  int64   // the longest write of all
}

// New tracks writes from origin on (the start of the measured phase);
// earlier ones are ignored.
func New(origin time.Time) *Tracker {
	// Wall clock only: the report measures from times read back from
	// files, and must find the same slots.
	return &Tracker{origin: origin.Round(0), width: Resolution, eps: map[string]*series{}}
}

// Add records one write on endpoint: when it started, how long it took,
// and whether it succeeded.
func (t *Tracker) Add(endpoint string, start time.Time, latency time.Duration, ok bool) {
	if start.Before(t.origin) {
		return
	}
	s := t.eps[endpoint]
	if s == nil {
		s = &series{}
		t.eps[endpoint] = s
	}
	si := t.slot(start)
	end := start.Add(latency)
	ei := t.slot(end)
	for ei >= maxSlots {
		t.coarsen()
		si, ei = t.slot(start), t.slot(end)
	}
	s.grow(ei + 1)
	if ok {
		s.done[ei] = true
	}
	if ns := int64(latency); ns > s.longest[si] {
		s.longest[si] = ns
		s.maxLat = max(s.maxLat, ns)
	}
}

func (t *Tracker) slot(at time.Time) int { return int(at.Round(0).Sub(t.origin) / t.width) }

func (s *series) grow(n int) {
	for len(s.done) < n {
		s.done = append(s.done, false)
		s.longest = append(s.longest, 0)
	}
}

// coarsen doubles the slots' width, merging neighbours.
func (t *Tracker) coarsen() {
	t.width *= 2
	for _, s := range t.eps {
		n := (len(s.done) + 1) / 2
		for i := 0; i < n; i++ {
			d, l := s.done[2*i], s.longest[2*i]
			if 2*i+1 < len(s.done) {
				d = d || s.done[2*i+1]
				l = max(l, s.longest[2*i+1])
			}
			s.done[i], s.longest[i] = d, l
		}
		s.done, s.longest = s.done[:n], s.longest[:n]
	}
}

// Endpoints are the endpoints that had writes, sorted.
func (t *Tracker) Endpoints() []string {
	out := make([]string, 0, len(t.eps))
	for ep := range t.eps {
		out = append(out, ep)
	}
	slices.Sort(out)
	return out
}

// Wrote reports whether endpoint (any, for AllEndpoints) had a write in
// the run, successful or not: an endpoint without is no traffic, not a
// stall.
func (t *Tracker) Wrote(endpoint string) bool {
	if endpoint == AllEndpoints {
		return len(t.eps) > 0
	}
	return t.eps[endpoint] != nil
}

// FirstWrite is when the first successful write of endpoint (of any, for
// AllEndpoints) completed (the start of its slot); false when none did.
func (t *Tracker) FirstWrite(endpoint string) (time.Time, bool) {
	first := -1
	for ep, s := range t.eps {
		if ep != endpoint && endpoint != AllEndpoints {
			continue
		}
		for i, d := range s.done {
			if d {
				if first < 0 || i < first {
					first = i
				}
				break
			}
		}
	}
	if first < 0 {
		return time.Time{}, false
	}
	return t.origin.Add(time.Duration(first) * t.width), true
}

// Stretch is the longest stretch of an endpoint without a successful write
// within a window of time.
type Stretch struct {
	Start time.Time
	// Length is a whole number of slots (10 ms at first): writes
	// completing in every slot give 0.
	Length time.Duration
	// Worst is the longest latency of the writes that were running during
	// the stretch (that started before its end and had not completed at its
	// start), failed ones included; 0 when none was (InFlight false).
	Worst time.Duration
	// InFlight says some write was running during the stretch: without,
	// the clients sent none then (they were reconnecting, or running other
	// statements), and Worst says nothing.
	InFlight bool
}

// AllEndpoints names the cluster as a whole: a stretch of it is a time in
// which no endpoint completed a write (a TOI change stops every node at
// once; a rolling RSU change one at a time, so the cluster keeps writing).
const AllEndpoints = "(all)"

// Longest returns the longest stretch of endpoint (or of AllEndpoints)
// without a successful write between from and to. An endpoint without any
// write in the run gives a stretch of the whole window: ask Wrote first.
func (t *Tracker) Longest(endpoint string, from, to time.Time) Stretch {
	var ss []*series
	if endpoint == AllEndpoints {
		for _, ep := range t.Endpoints() {
			ss = append(ss, t.eps[ep])
		}
	} else if s := t.eps[endpoint]; s != nil {
		ss = []*series{s}
	}
	if from.Before(t.origin) {
		from = t.origin
	}
	if !to.After(from) {
		return Stretch{Start: from}
	}
	done := func(i int) bool {
		for _, s := range ss {
			if i < len(s.done) && s.done[i] {
				return true
			}
		}
		return false
	}
	fi, ti := t.slot(from), t.slot(to)
	best, bestAt, run := 0, fi, 0
	for i := fi; i <= ti; i++ {
		if done(i) {
			run = 0
			continue
		}
		run++
		if run > best {
			best, bestAt = run, i-run+1
		}
	}
	st := Stretch{Start: t.origin.Add(time.Duration(bestAt) * t.width), Length: time.Duration(best) * t.width}
	if best == 0 {
		return st
	}
	// Writes running during the stretch: started before its end, and
	// still running at its start even if they started as early as their
	// slot allows (one that may have ended before it, in the slot before,
	// is not counted). Those that started before it ran longer than the
	// distance back, which bounds the scan.
	a, b := bestAt, bestAt+best
	for _, s := range ss {
		for i := min(b, len(s.longest)) - 1; i >= 0; i-- {
			if d := int64(a-i) * int64(t.width); d > s.maxLat+int64(t.width) {
				break
			}
			l := s.longest[i]
			if l > 0 && int64(i)*int64(t.width)+l > int64(a)*int64(t.width) {
				st.InFlight = true
				st.Worst = max(st.Worst, time.Duration(l))
			}
		}
	}
	return st
}
