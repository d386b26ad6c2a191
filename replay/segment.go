package replay

import (
	"context"
	"os"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/results"
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
// (the options as given), then every segment waits at the start barrier
// and gets the instant they all start at.
func (s *Session) meet(ctx context.Context, run *results.Run, dir *results.RunDir, log *lockedWriter) (time.Time, error) {
	o := &s.opts
	if o.Segment.Index == 1 {
		whole := *run
		whole.Segment, whole.Options = 0, s.whole
		if err := dir.WriteRunLevel(&whole); err != nil {
			return time.Time{}, err
		}
	}
	timeout := o.BarrierTimeout
	if timeout <= 0 {
		timeout = DefaultBarrierTimeout
	}
	host, _ := os.Hostname()
	log.Printf("segment %s: waiting for the other segments (up to %s)", o.Segment, timeout)
	waited := time.Now()
	at, err := startBarrier(ctx, s.eps[0].DB, run.RunID, o.Segment, host, timeout)
	if err != nil {
		return time.Time{}, err
	}
	log.Printf("segment %s: all %d segments ready after %s; starting in %s", o.Segment, o.Segment.Count,
		time.Since(waited).Round(time.Millisecond), time.Until(at).Round(time.Millisecond))
	return at, nil
}
