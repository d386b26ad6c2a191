package throttle

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Spec says whom to slow, how much and for how long.
type Spec struct {
	PID      int
	Resource Resource
	// Path is where the process keeps its data: the disk holding it is
	// the one whose I/O is limited.
	Path string
	// Fraction of its rate taken away, in [0, 1): 0.21 leaves it 79%. At
	// 0 nothing is limited, and the rates are measured all the same: a
	// control for the same window.
	Fraction float64
	// Measure is how long its rate is measured, unthrottled, before the
	// limit is set (0: DefaultMeasure); For how long the limit holds.
	Measure, For time.Duration
	// Limited, when set, is called once the limit is set.
	Limited func(time.Time)
	// Record, when set, is called with the group the process is about to
	// be moved into and the one it is in, before the group is made: the
	// caller notes them (a ledger) so that a killed caller's limit can be
	// lifted by Release. done is called once the process is back.
	Record func(group, from string) (done func() error, err error)
}

// DefaultMeasure is long enough to take in a server's once-a-second work
// (the redo log flush, the page cleaner) a few times.
const DefaultMeasure = 5 * time.Second

// controlEvery is how often the limit is adjusted.
const controlEvery = time.Second

// Result is what a slowdown measured.
type Result struct {
	Device Device // the disk limited (I/O)
	// Before is the rate measured before the limit, Target what the
	// limit aims at, During the rate while it held.
	Before, Target, During Usage
	Limited, Lifted        time.Time
}

// Ratio is the rate while limited as a fraction of the rate before: about
// 1-Fraction when the limit held. For I/O it is the higher of the ratios
// of operations and of bytes (reads and writes together), as the limit
// holds the one furthest over its target.
func (r Result) Ratio(res Resource) float64 {
	if res == CPU {
		return ratio(r.During.CPU, r.Before.CPU)
	}
	return max(ratio(r.During.ReadOps+r.During.WriteOps, r.Before.ReadOps+r.Before.WriteOps),
		ratio(r.During.ReadBytes+r.During.WriteBytes, r.Before.ReadBytes+r.Before.WriteBytes))
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// Check says why r cannot be limited here for a process whose data is at
// path (the machine has no cgroup controller for it, this user cannot
// write it, path is on no block device); nil when it can.
func Check(r Resource, path string) error {
	if _, err := findHierarchy(r); err != nil {
		return err
	}
	if r == IO {
		if _, err := DeviceOf(path); err != nil {
			return err
		}
	}
	return nil
}

// Run measures the process's rate for s.Measure, then limits it to
// (1-s.Fraction) of that rate for s.For, or until ctx ends, and lifts the
// limit whatever happens: the process is back in its own group, unlimited,
// when Run returns. Limited is the time the limit was set (at fraction 0,
// when it would have been).
func Run(ctx context.Context, s Spec) (res Result, err error) {
	if s.Fraction < 0 || s.Fraction >= 1 {
		return res, fmt.Errorf("throttle: fraction %v is not from 0 to less than 1", s.Fraction)
	}
	if s.Measure <= 0 {
		s.Measure = DefaultMeasure
	}
	h, err := findHierarchy(s.Resource)
	if err != nil {
		return res, err
	}
	if s.Resource == IO {
		if res.Device, err = DeviceOf(s.Path); err != nil {
			return res, err
		}
	}
	g, err := join(h, s.PID, s.Record)
	if err != nil {
		return res, err
	}
	defer func() {
		lifted := g.lift(s.Resource, res.Device)
		left := g.leave()
		err = errors.Join(err, lifted, left)
		if left == nil && g.recorded != nil {
			err = errors.Join(err, g.recorded())
		}
		res.Lifted = time.Now()
	}()
	usage := func() (Usage, error) {
		if s.Resource == CPU {
			t, err := cpuTime(s.PID)
			return Usage{CPU: t}, err
		}
		return g.ioUsage(res.Device)
	}

	u0, err := usage()
	if err != nil {
		return res, err
	}
	t0 := time.Now()
	if err := sleep(ctx, s.Measure); err != nil {
		return res, err
	}
	u1, err := usage()
	if err != nil {
		return res, err
	}
	res.Before = u0.Rate(u1, time.Since(t0))
	res.Target = res.Before.Scale(1 - s.Fraction)
	limit := s.Fraction > 0
	if limit && !anyAbove(res.Target.figures(s.Resource), 0) {
		what := "disk I/O on " + res.Device.String()
		if s.Resource == CPU {
			what = "CPU"
		}
		return res, fmt.Errorf("the process used no %s in the %s before: nothing to slow down", what, s.Measure)
	}

	c := newController(res.Target)
	if limit {
		if err := g.setLimit(s.Resource, res.Device, c.limit()); err != nil {
			return res, err
		}
	}
	res.Limited = time.Now()
	if s.Limited != nil {
		s.Limited(res.Limited)
	}
	start, last, lastAt := u1, u1, res.Limited
	end := res.Limited.Add(s.For)
	var werr error
	for time.Now().Before(end) {
		if werr = sleep(ctx, min(controlEvery, time.Until(end))); werr != nil {
			break
		}
		// A server restarted meanwhile runs as a new process, outside the
		// group: the limit would go on, acting on nothing.
		if syscall.Kill(s.PID, 0) != nil {
			res.During = start.Rate(last, lastAt.Sub(res.Limited))
			return res, fmt.Errorf("process %d exited while limited: the limit ended with it", s.PID)
		}
		u, err := usage()
		if err != nil {
			return res, fmt.Errorf("while limited: %w", err)
		}
		now := time.Now()
		c.observe(s.Resource, last.Rate(u, now.Sub(lastAt)))
		last, lastAt = u, now
		if !limit {
			continue
		}
		if err := g.setLimit(s.Resource, res.Device, c.limit()); err != nil {
			return res, err
		}
	}
	res.During = start.Rate(last, lastAt.Sub(res.Limited))
	return res, werr
}

func anyAbove(xs []float64, v float64) bool {
	for _, x := range xs {
		if x > v {
			return true
		}
	}
	return false
}

// sleep waits d, or less when ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
