package compare

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/analysis/stats"
	"github.com/joinbench/joinbench/results"
)

// The rule's warnings are data: each is an error of its own type, with
// what it found, so that a caller can match it (errors.As) and decide; the
// comparison lists them in its words.

// OptionsDiffer: the runs were made with different options that change
// what they measure, so a difference may come from them, not the server.
type OptionsDiffer struct {
	// Differences are "name base vs candidate", by run.json key.
	Differences []string
}

func (w *OptionsDiffer) Error() string {
	return fmt.Sprintf("the runs were made with different options (%s): a difference may come from them, not from the server",
		strings.Join(w.Differences, "; "))
}

// comparedOptions are the run options that change what a run measures or
// what it costs the client: two runs that differ in one are not a
// like-for-like comparison of their servers. Each is named by its run.json
// key.
var comparedOptions = []struct {
	key   string
	value func(*results.RunOptions) any
}{
	{"threads", func(o *results.RunOptions) any { return o.Threads }},
	{"rate", func(o *results.RunOptions) any { return o.Rate }},
	{"skip_trx", func(o *results.RunOptions) any { return o.SkipTrx }},
	{"ps_mode", func(o *results.RunOptions) any { return o.PsMode }},
	{"exec_path", func(o *results.RunOptions) any { return o.ExecPath }},
	{"checksum", func(o *results.RunOptions) any { return o.Checksum }},
	{"live_results", func(o *results.RunOptions) any { return o.LiveResults }},
	{"seed", func(o *results.RunOptions) any { return o.Seed }},
	{"distribution", func(o *results.RunOptions) any { return o.Distribution }},
	{"tables", func(o *results.RunOptions) any { return o.Tables }},
	{"table_size", func(o *results.RunOptions) any { return o.TableSize }},
	{"table_name", func(o *results.RunOptions) any { return o.TableName }},
	{"read_only", func(o *results.RunOptions) any { return o.ReadOnly }},
	{"explain", func(o *results.RunOptions) any { return o.Explain }},
}

// CheckOptions compares the comparedOptions of two runs' run.json: an
// *OptionsDiffer when any differ, nil otherwise. Options a run does not
// record (an older joinbench) are not compared.
func CheckOptions(base, cand *results.Run) error {
	if base == nil || cand == nil || base.Options == nil || cand.Options == nil {
		return nil
	}
	var out []string
	for _, o := range comparedOptions {
		if !base.Options.Recorded(o.key) || !cand.Options.Recorded(o.key) {
			continue
		}
		b, c := o.value(base.Options), o.value(cand.Options)
		if b != c {
			out = append(out, fmt.Sprintf("%s %v vs %v", o.key, b, c))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return &OptionsDiffer{Differences: out}
}

// RoundSizeDiffers: a calibration was measured on rounds of a very
// different number of executions than the rounds compared, so its noise
// does not apply as is.
type RoundSizeDiffers struct {
	Calibration string // its path
	// Scenarios are "name executions-per-round vs the calibration's".
	Scenarios []string
}

func (w *RoundSizeDiffers) Error() string {
	return fmt.Sprintf("%s: the calibration's rounds had a very different number of executions per round than these (%s): "+
		"calibrate with the same round length, threads and data", w.Calibration, strings.Join(w.Scenarios, "; "))
}

// CheckRoundSize compares the executions per round of the scenarios names
// with the calibration's: a *RoundSizeDiffers when some differ by more
// than a factor 2, nil otherwise (and without rounds or calibration).
func CheckRoundSize(noise *Noise, rounds *Rounds, names []string) error {
	if rounds == nil {
		return nil
	}
	var unlike []string
	for _, n := range names {
		cal := noise.Scenario(n)
		if cal == nil || cal.ExecutionsPerRound <= 0 {
			continue
		}
		sr := rounds.Of(n)
		if sr == nil {
			continue
		}
		all := append(append([]*stats.Reservoir{}, sr.Base...), sr.Candidate...)
		if len(all) == 0 {
			continue
		}
		per := float64(executionsOf(all)) / float64(len(all))
		if r := per / cal.ExecutionsPerRound; r < 0.5 || r > 2 {
			unlike = append(unlike, fmt.Sprintf("%s %.0f vs %.0f", n, per, cal.ExecutionsPerRound))
		}
	}
	if len(unlike) == 0 {
		return nil
	}
	return &RoundSizeDiffers{Calibration: noise.Path, Scenarios: unlike}
}

// EndpointsDiffer: the runs whose stalls are compared have different
// numbers of endpoints; the first Compared are compared in order.
type EndpointsDiffer struct {
	Base, Candidate, Compared int
}

func (w *EndpointsDiffer) Error() string {
	return fmt.Sprintf("stall times: the runs have %d and %d endpoints; the first %d are compared in order", w.Base, w.Candidate, w.Compared)
}

// IdleSlices: neither side of runs in lockstep completed a statement in
// some slices, and neither was stuck at the end: statements longer than a
// slice. Those slices are no rounds of any scenario.
type IdleSlices struct {
	Slices []int // numbered from 1
	Of     int
}

func (w *IdleSlices) Error() string {
	return fmt.Sprintf("neither side completed a statement in slice%s %s of %d: statements longer than a slice leave slices without a round; "+
		"longer slices (--time) hold them", plural(len(w.Slices)), spans(w.Slices), w.Of)
}
