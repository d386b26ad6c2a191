package ab

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// lockstepRunID is the run id of side's one run in lockstep.
func lockstepRunID(series string, side Side) string {
	return fmt.Sprintf("%s-%s", series, side.Name())
}

// lockstepReplicate is what run.json records of side's run in lockstep:
// it holds every round of the side, one per slice.
func (x *experiment) lockstepReplicate(side Side) results.Replicate {
	return results.Replicate{Series: x.series, Side: side.Name(), Rounds: x.Rounds, Slice: results.Duration(x.roundTime()), HeldBack: x.heldBack(side)}
}

// runLockstep runs the workload once on each side, for Rounds slices of
// the workload's time, the two runs taking turns statement by statement
// (see replay.Lockstep), and records the two run folders with their
// replicate metadata.
func (x *experiment) runLockstep(ctx context.Context) error {
	fmt.Fprintf(x.Log, "ab %s: both servers at once, taking turns statement by statement, for %d slices of %s (+%s warm-up): base %s, candidate %s; results in %s\n",
		x.series, x.Rounds, x.roundTime(), x.warmup(), x.label(Base), x.label(Candidate), x.res.Dir)
	lk := replay.NewLockstep(x.Workload.Threads)
	// A side that fails (its server unreachable, its tables missing) stops
	// the other, which would wait for it.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for _, side := range sides {
		o := x.runOptions(side, lockstepRunID(x.series, side))
		o.Time = results.Duration(x.total())
		o.Lockstep = lk.Side(int(side))
		o.Log = prefixWriter{w: x.Log, prefix: "ab: " + side.Name() + ": "}
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir, err := x.RunOn(ctx, side, o)
			if dir != "" {
				x.res.Runs[side] = append(x.res.Runs[side], dir)
			}
			if err != nil {
				errs[side] = err
				cancel(fmt.Errorf("the %s's run failed: %w", side.Name(), err))
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	x.sliceProgress(lk, done)
	if err := x.lockstepError(ctx, errs); err != nil {
		return err
	}
	return x.recordSlices()
}

// total is the length of the measured phase of a run in lockstep: every
// slice.
func (x *experiment) total() time.Duration { return time.Duration(x.Rounds) * x.roundTime() }

// lockstepError is why the runs in lockstep failed, if they did: the
// error of the side that failed first (the other only waited), else an
// interruption.
func (x *experiment) lockstepError(ctx context.Context, errs []error) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		for _, side := range sides {
			if err := errs[side]; err != nil && errors.Is(cause, err) {
				return fmt.Errorf("%s (%s): %w", side.Name(), x.label(side), err)
			}
		}
	}
	for _, side := range sides {
		if err := errs[side]; err != nil {
			return fmt.Errorf("%s (%s): %w", side.Name(), x.label(side), err)
		}
	}
	if err := ctx.Err(); err != nil {
		// Interrupted: the runs still get their replicate, so that a
		// comparison reads the slices they began as rounds, and their
		// run.json says they were interrupted.
		for _, side := range sides {
			if dirs := x.res.Runs[side]; len(dirs) == 1 {
				_ = results.SetReplicate(dirs[0], x.lockstepReplicate(side))
			}
		}
		return x.interrupted(err)
	}
	return nil
}

// recordSlices checks that each side's run recorded executions and
// records its replicate metadata.
func (x *experiment) recordSlices() error {
	for _, side := range sides {
		var info *results.Run
		if dirs := x.res.Runs[side]; len(dirs) == 1 {
			info = results.ReadRunInfo(dirs[0], nil)
		}
		if info == nil || info.Executions == 0 {
			return fmt.Errorf("%s (%s): the run recorded no execution", side.Name(), x.label(side))
		}
		if err := results.SetReplicate(x.res.Runs[side][0], x.lockstepReplicate(side)); err != nil {
			return err
		}
		fmt.Fprintf(x.Log, "ab: %-9s %d slices of %s, %d executions, %d errors\n",
			side.Name(), x.Rounds, x.roundTime(), info.Executions, info.Errors)
	}
	return nil
}

// sliceProgress prints a line as each slice of the measured phase ends,
// until done is closed.
func (x *experiment) sliceProgress(lk *replay.Lockstep, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-lk.Met():
	}
	start := lk.Start().Add(x.warmup())
	fmt.Fprintf(x.Log, "ab: both servers started; %d slices of %s after a warm-up of %s, the two taking turns statement by statement\n",
		x.Rounds, x.roundTime(), x.warmup())
	for k := 1; ; k++ {
		at := start.Add(time.Duration(k) * x.roundTime())
		select {
		case <-done:
			return
		case <-time.After(time.Until(at)):
		}
		if k <= x.Rounds {
			fmt.Fprintf(x.Log, "ab: slice %d/%d done (%s of %s)\n", k, x.Rounds, time.Duration(k)*x.roundTime(), x.total())
		}
	}
}
