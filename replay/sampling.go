package replay

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/joinbench/joinbench/results"
)

// Status is sampled on every server on its own goroutine, at the end of
// every bucket of the progress lines (the seconds of the report's
// timeline): a node that does not answer holds up neither the lines nor
// the other nodes' samples, and its rows say so (UnreachableSampler).

// How long a status sample may take; the final one is not waited for
// long, nor at all when the server stopped answering (unresponsive).
const (
	sampleTimeout      = 5 * time.Second
	finalSampleTimeout = 2 * time.Second
)

// UnreachableSampler is a StatusSampler with rows to write when its
// server does not answer (status.Sampler: a Galera node's states).
type UnreachableSampler interface {
	Unreachable(now time.Time) []results.Status
}

// statusSource is one server whose status the run samples: an endpoint,
// or a node behind a proxy (Config.Nodes).
type statusSource struct {
	name    string
	sampler StatusSampler
	// unresponsive is set when a sample got no reply in time, and cleared
	// by one that did: the final sample is not waited for then.
	unresponsive *atomic.Bool
}

// statusSources are the servers with a sampler: the endpoints', and the
// nodes'.
func (e *engine) statusSources() []statusSource {
	var out []statusSource
	for _, ep := range e.eps {
		if ep.Sampler != nil {
			out = append(out, statusSource{name: ep.Name, sampler: ep.Sampler, unresponsive: &ep.unresponsive})
		}
	}
	for _, n := range e.cfg.Nodes {
		if n.Sampler != nil {
			out = append(out, statusSource{name: n.Name, sampler: n.Sampler, unresponsive: &atomic.Bool{}})
		}
	}
	return out
}

// sample samples src at the end of every bucket until stop, then a last
// time (also after Ctrl-C, unless the server stopped answering); the
// first sample only sets the baseline. A sample is timed at the end of its
// bucket, so that the rows of every server line up.
func (e *engine) sample(ctx context.Context, src statusSource, stop <-chan struct{}) {
	failing := false
	once := func(ctx context.Context, timeout time.Duration, now time.Time) {
		sctx, cancel := context.WithTimeout(ctx, timeout)
		rows, err := src.sampler.Sample(sctx, now)
		cancel()
		switch {
		case err != nil && ctx.Err() != nil:
			return
		case err != nil:
			if sctx.Err() != nil {
				src.unresponsive.Store(true)
			}
			if !failing {
				e.log.Printf("status of %s: %v", src.name, err)
			}
			failing = true
			if u, ok := src.sampler.(UnreachableSampler); ok {
				rows = u.Unreachable(now)
			}
		default:
			src.unresponsive.Store(false)
			if failing {
				e.log.Printf("status of %s: answering again", src.name)
			}
			failing = false
		}
		if len(rows) > 0 {
			if err := e.cfg.Sink.WriteStatus(rows); err != nil {
				e.cancel(fmt.Errorf("write status: %w", err))
			}
		}
	}
	once(ctx, sampleTimeout, time.Now())
	width := int64(e.cfg.ReportInterval)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		next := time.Unix(0, (floorDiv(time.Now().UnixNano(), width)+1)*width)
		timer.Reset(time.Until(next))
		select {
		case <-stop:
			if !src.unresponsive.Load() {
				once(context.WithoutCancel(ctx), finalSampleTimeout, time.Now())
			}
			return
		case <-timer.C:
			once(ctx, sampleTimeout, next)
		}
	}
}
