package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Sides of a repeated comparison.
const (
	SideBase      = "base"
	SideCandidate = "candidate"
)

// Replicate identifies one round of a repeated comparison: the runs of one
// series alternate between the base and the candidate server, each run one
// round of its side. Compare treats every run as a round; two rounds of
// the same series and round number ran next to each other in time, so
// compare may pair them.
//
// With Slice set, the run holds every round of its side: it ran at the
// same time as the other side's run, the two taking turns statement by
// statement (joinbench ab --interleave statements), and round k (from 1)
// is the statements started in [Start + (k-1)·Slice, Start + k·Slice) of
// its measured phase (the last round also holds those started after it,
// by events begun before the end). Round and Order are then 0.
type Replicate struct {
	// Series is shared by every round of one comparison.
	Series string `json:"series"`
	// Side is SideBase or SideCandidate.
	Side string `json:"side"`
	// Round counts the rounds of the side from 1.
	Round int `json:"round"`
	// Order is the run's position in the series, from 1.
	Order int `json:"order"`
	// Rounds is the number of rounds per side the series planned.
	Rounds int `json:"rounds"`
	// Slice is the length of each round of a run in lockstep; 0 when
	// the run is one round.
	Slice Duration `json:"slice,omitempty"`
	// HeldBack is, on the candidate of an ab --candidate-slow, the share of
	// its server's time a proxy held each answer back by: a candidate made
	// slower on purpose, by that much on every statement. 0 otherwise.
	HeldBack float64 `json:"held_back,omitempty"`
}

// SliceOf is the round (from 1) of a statement started at startNs (Unix
// nanoseconds) in a run in lockstep whose measured phase started at
// runStartNs.
func (r *Replicate) SliceOf(startNs, runStartNs int64) int {
	k := 1
	if d := startNs - runStartNs; d > 0 && r.Slice > 0 {
		k += int(d / int64(r.Slice))
	}
	return min(k, max(r.Rounds, 1))
}

// SetReplicate records rep in the run.json of the run folder dir, which
// must exist; the file is replaced atomically.
func SetReplicate(dir string, rep Replicate) error {
	path := filepath.Join(dir, RunFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("replicate: %w", err)
	}
	// Numbers of free-form fields stay as written (a seed above 2^53).
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var r Run
	if err := dec.Decode(&r); err != nil {
		return fmt.Errorf("replicate: %s: %w", path, err)
	}
	r.Replicate = &rep
	out, err := json.MarshalIndent(&r, "", "  ")
	if err != nil {
		return fmt.Errorf("replicate: %w", err)
	}
	return writeAtomic(path, append(out, '\n'))
}
