package report

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/joinbench/joinbench/results"
)

// MaxRounds bounds the rounds a run.json's replicate may claim: each is
// read as a round of its own, so the claim must not be what sizes memory.
const MaxRounds = 10_000

// BadRunFileError is a run.json that no run writes: edited by hand or
// damaged. A comparison refuses it rather than compare what it says.
type BadRunFileError struct {
	Path    string // the run.json
	Problem string
}

func (e *BadRunFileError) Error() string {
	return fmt.Sprintf("%s: %s: not compared (edited or damaged?)", e.Path, e.Problem)
}

// checkRunFile refuses a run.json of the run folder dir that holds what
// no run writes: nothing but its id, an end before its start, a replicate
// whose rounds are out of bounds or do not fit the run. A missing
// run.json (nil) is not this check's.
func checkRunFile(dir string, r *results.Run) error {
	if r == nil {
		return nil
	}
	bad := func(format string, args ...any) error {
		return &BadRunFileError{Path: filepath.Join(dir, results.RunFile), Problem: fmt.Sprintf(format, args...)}
	}
	switch {
	case r.Start.IsZero() && r.ServerVersion == "" && r.Options == nil && len(r.Scenarios) == 0:
		return bad("it holds no start, server or options, only its id")
	case !r.End.IsZero() && r.End.Before(r.Start):
		return bad("its end %s is before its start %s", r.End.Format(time.RFC3339Nano), r.Start.Format(time.RFC3339Nano))
	case r.Executions < 0 || r.Errors < 0 || r.CutAtEnd < 0:
		return bad("negative counts (executions %d, errors %d, cut at the end %d)", r.Executions, r.Errors, r.CutAtEnd)
	}
	rep := r.Replicate
	if rep == nil {
		return nil
	}
	switch {
	case rep.Rounds < 1 || rep.Rounds > MaxRounds:
		return bad("its replicate claims %d rounds (1 to %d)", rep.Rounds, MaxRounds)
	case rep.Round < 0 || rep.Round > rep.Rounds || rep.Order < 0 || rep.Order > 2*rep.Rounds:
		return bad("its replicate is round %d, order %d, of %d rounds", rep.Round, rep.Order, rep.Rounds)
	case rep.Slice < 0:
		return bad("its replicate has a negative slice %s", rep.Slice)
	case rep.Slice > 0 && r.Start.IsZero():
		return bad("its replicate is in slices of %s, but the run has no start to slice from", rep.Slice)
	}
	if fit := slicesBegun(r); rep.Slice > 0 && fit < rep.Rounds && !r.Interrupted && r.Error == "" {
		return bad("its replicate claims %d slices of %s, but the run lasted %s", rep.Rounds, rep.Slice, r.End.Sub(r.Start))
	}
	return nil
}

// slicesBegun is the number of slices of a run in lockstep that began
// before its end: all it claims when it has no end.
func slicesBegun(r *results.Run) int {
	rep := r.Replicate
	if r.End.IsZero() || rep.Slice <= 0 {
		return rep.Rounds
	}
	// A run ends a little after its last slice (statements finishing,
	// the writer): a slice begun in that margin is not one.
	span := r.End.Sub(r.Start) - sliceEndMargin
	return int(min(int64(max(span, 0)/time.Duration(rep.Slice))+1, int64(rep.Rounds)))
}

// sliceEndMargin is how much of a run in lockstep's span, at its end, is
// not taken for the start of one more slice.
const sliceEndMargin = 100 * time.Millisecond

// interruptedCut says what an interrupted run's rounds lack.
func interruptedCut(r *results.Run) string {
	if rep := r.Replicate; rep != nil && rep.Slice > 0 {
		return fmt.Sprintf("%d of its %d slices began, the last cut short", slicesBegun(r), rep.Rounds)
	}
	return "its round was cut short"
}
