package ab

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/joinbench/joinbench/results"
)

// slot is one round of one side in the order of the series.
type slot struct {
	side  Side
	round int // of the side, from 1
	order int // in the series, from 1
}

// roundOrder is the order of rounds rounds per side: base, candidate,
// candidate, base, base, candidate, ..., so that each side runs first in
// every other pair and a drift of the machine hits both alike.
func roundOrder(rounds int) []slot {
	out := make([]slot, 0, 2*rounds)
	for k := 1; k <= rounds; k++ {
		pair := [2]Side{Base, Candidate}
		if k%2 == 0 {
			pair[0], pair[1] = pair[1], pair[0]
		}
		for _, s := range pair {
			out = append(out, slot{side: s, round: k, order: len(out) + 1})
		}
	}
	return out
}

// roundRunID is the run id of round k of side.
func roundRunID(series string, side Side, k int) string {
	return fmt.Sprintf("%s-%s-%02d", series, side.Name(), k)
}

// replicate is what run.json records of the round in slot.
func (x *experiment) replicate(sl slot) results.Replicate {
	return results.Replicate{Series: x.series, Side: sl.side.Name(), Round: sl.round, Order: sl.order, Rounds: x.Rounds, HeldBack: x.heldBack(sl.side)}
}

// runRounds runs the rounds of both sides, each a run of its own, in
// roundOrder, and records their folders and replicate metadata.
func (x *experiment) runRounds(ctx context.Context) error {
	per := x.roundTime() + x.warmup()
	fmt.Fprintf(x.Log, "ab %s: rounds of %s (+%s warm-up), %d per side: base %s, candidate %s, at least %s; results in %s\n",
		x.series, x.roundTime(), x.warmup(), x.Rounds, x.label(Base), x.label(Candidate),
		(time.Duration(2*x.Rounds) * per).Round(time.Second), x.res.Dir)
	for _, sl := range roundOrder(x.Rounds) {
		if err := ctx.Err(); err != nil {
			return x.interrupted(err)
		}
		dir, err := x.round(ctx, sl)
		if err != nil && ctx.Err() != nil {
			return x.interrupted(ctx.Err())
		}
		if err != nil {
			err = fmt.Errorf("round %d of %s (%s): %w", sl.round, sl.side.Name(), x.label(sl.side), err)
			if len(x.res.Runs[sl.side]) > 0 {
				// It answered an earlier round: not a server the user
				// named wrong, but one that failed.
				err = &ServerError{Side: sl.side, Err: err}
			}
			return err
		}
		if err := results.SetReplicate(dir, x.replicate(sl)); err != nil {
			return err
		}
		x.res.Runs[sl.side] = append(x.res.Runs[sl.side], dir)
		line := fmt.Sprintf("ab: round %d/%d %-9s", sl.round, x.Rounds, sl.side.Name())
		if info := results.ReadRunInfo(dir, nil); info != nil {
			line += fmt.Sprintf(" %s, %d executions, %d errors",
				info.End.Sub(info.Start).Round(100*time.Millisecond), info.Executions, info.Errors)
		}
		fmt.Fprintln(x.Log, line)
	}
	return nil
}

// round runs one round and returns its run folder. A round that recorded
// nothing after a warm-up is run again without one (see
// experiment.noWarmup).
func (x *experiment) round(ctx context.Context, sl slot) (string, error) {
	dir, err := x.runRound(ctx, sl)
	if err != nil || x.noWarmup || x.warmup() == 0 {
		return dir, err
	}
	if info := results.ReadRunInfo(dir, nil); info == nil || info.Executions > 0 {
		return dir, nil
	}
	x.noWarmup = true
	fmt.Fprintf(x.Log, "ab: round %d of %s recorded nothing: its events outlast the warm-up and the round; "+
		"running it again, and every later round, without warm-up\n", sl.round, sl.side.Name())
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	return x.runRound(ctx, sl)
}

// runRound makes the run of one round.
func (x *experiment) runRound(ctx context.Context, sl slot) (string, error) {
	o := x.runOptions(sl.side, roundRunID(x.series, sl.side, sl.round))
	if x.noWarmup {
		o.Warmup = 0
	}
	dir, err := x.RunOn(ctx, sl.side, o)
	if err != nil {
		return "", err
	}
	return dir, nil
}
