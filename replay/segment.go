package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
)

// shareOut turns the options of the whole run into those of its segment,
// so that N segments together do what one process with the options would:
// threads, events and explain-every shared out exactly (segment.Share:
// the first remainder segments one more), the rate divided (each segment
// paces every N-th event of the whole, see SegmentPacer), and a seed of the
// segment's own, derived from the run's and the segment (the segments'
// values differ, and the same segment draws the same ones again).
func (o *Options) shareOut() error {
	seg := o.Segment
	if o.RunID == "" {
		return usage.Errorf("--segment %s needs --run-id, the same for every segment: it names the run they write together", seg)
	}
	if int64(o.Threads) < int64(seg.Count) {
		return usage.Errorf("--threads %d over %d segments: every segment needs at least one thread", o.Threads, seg.Count)
	}
	if o.Events > 0 && o.Events < int64(seg.Count) {
		return usage.Errorf("--events %d over %d segments: every segment needs at least one event", o.Events, seg.Count)
	}
	o.Threads = int(seg.Share(int64(o.Threads)))
	o.Events = seg.Share(o.Events)
	o.ExplainEvery = seg.Share(o.ExplainEvery)
	o.Rate /= float64(seg.Count)
	o.Seed = seg.Seed(o.Seed)
	return nil
}

// segmentPacer paces the segment's share of a --rate run; nil when
// unpaced.
func (o *Options) segmentPacer() Pacer {
	if o.Rate <= 0 {
		return nil
	}
	whole := o.Rate * float64(o.Segment.Count)
	return SegmentPacer{Rate: whole, Index: int64(o.Segment.Index - 1), Count: int64(o.Segment.Count)}
}

// meet is the start of a segment: segment 1 writes the run-level run.json
// (the options as given), then every segment claims its place at the
// start barrier and gets the instant they all start at. A segment refused
// or failed at the barrier removes what it wrote in the run folder, so
// that it can be run again.
func (s *Session) meet(ctx context.Context, run *results.Run, dir *results.RunDir, log *lockedWriter) (time.Time, error) {
	o := &s.opts
	if o.Segment.Index == 1 {
		whole := *run
		whole.Segment, whole.Options = 0, s.whole
		if err := dir.WriteRunLevel(&whole); err != nil {
			return time.Time{}, err
		}
	}
	at, err := s.barrier(ctx, run, log)
	if err != nil {
		written := []string{results.SegmentFile(o.Segment.Index)}
		if o.Segment.Index == 1 {
			written = append(written, results.RunFile)
		}
		for _, f := range written {
			_ = os.Remove(filepath.Join(dir.Path(), f))
		}
		return time.Time{}, err
	}
	return at, nil
}

// barrier claims this segment's place at the start barrier on the run's
// terms and waits for the others (startBarrier).
func (s *Session) barrier(ctx context.Context, run *results.Run, log *lockedWriter) (time.Time, error) {
	o := &s.opts
	timeout := o.BarrierTimeout
	if timeout <= 0 {
		timeout = DefaultBarrierTimeout
	}
	terms, err := s.segmentTerms()
	if err != nil {
		return time.Time{}, err
	}
	claim, err := newSegmentClaim(run.RunID, o.Segment, run.ClientHost, terms)
	if err != nil {
		return time.Time{}, err
	}
	log.Printf("segment %s: waiting for the other segments (up to %s)", o.Segment, timeout)
	waited := time.Now()
	at, err := startBarrier(ctx, s.eps[0].DB, claim, timeout)
	if err != nil {
		return time.Time{}, err
	}
	log.Printf("segment %s: all %d segments ready after %s; starting in %s", o.Segment, o.Segment.Count,
		time.Since(waited).Round(time.Millisecond), time.Until(at).Round(time.Millisecond))
	return at, nil
}

// segmentTerms is what every segment of a run must agree on, as JSON with
// sorted keys: the options of the whole run as given (run.json's), and
// the scenarios and actions they come to. Scenarios are named with their
// template hash, so that one name from two different corpus files
// differs; the corpus folders are left out, since clients may mount one
// corpus at different paths.
func (s *Session) segmentTerms() ([]byte, error) {
	opts := *s.whole
	opts.CorpusDirs = nil
	b, err := json.Marshal(opts)
	if err != nil {
		return nil, err
	}
	terms := map[string]any{}
	if err := json.Unmarshal(b, &terms); err != nil {
		return nil, err
	}
	scenarios := make([]string, 0, len(s.work.scenarios))
	for _, sc := range s.work.scenarios {
		scenarios = append(scenarios, sc.Name+"@"+sc.Hash)
	}
	actions := make([]string, 0, len(s.specs))
	for _, a := range s.specs {
		actions = append(actions, a.Text)
	}
	terms["scenarios"], terms["actions"] = scenarios, actions
	return json.Marshal(terms)
}

// termsDifferences names the terms in which mine differ from theirs
// (segment other's), e.g. `threads 8 (segment 1: 4)`.
func termsDifferences(mine, theirs []byte, other int) string {
	var a, b map[string]json.RawMessage
	if json.Unmarshal(mine, &a) != nil || json.Unmarshal(theirs, &b) != nil {
		return "its terms cannot be read"
	}
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		switch {
		case bytes.Equal(a[k], b[k]):
		case k == "scenarios":
			diffs = append(diffs, "the scenarios (their names or their files)")
		default:
			diffs = append(diffs, fmt.Sprintf("%s %s (segment %d: %s)", k, clipTerm(a[k]), other, clipTerm(b[k])))
		}
	}
	if len(diffs) == 0 {
		return "another version of joinbench"
	}
	return strings.Join(diffs, ", ")
}

func clipTerm(v json.RawMessage) string {
	s := string(v)
	if s == "" {
		s = "(none)"
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
