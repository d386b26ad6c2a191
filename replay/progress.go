package replay

import (
	"context"
	"fmt"
	"time"
)

// progress is the goroutine of the live report (report).
type progress struct {
	stop, done chan struct{}
}

// startProgress starts the live report of the measured phase; status
// sampling stops with ctx.
func (e *engine) startProgress(ctx context.Context, measured *phase) *progress {
	p := &progress{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		e.report(ctx, measured, p.stop)
	}()
	return p
}

// finish has the report take its final sample, and waits for it.
func (p *progress) finish() {
	close(p.stop)
	<-p.done
}

// report prints the live line every interval and samples server status.
func (e *engine) report(ctx context.Context, measured *phase, stop <-chan struct{}) {
	iv := e.cfg.ReportInterval
	if iv <= 0 {
		<-stop
		return
	}
	out := &lockedWriter{w: e.cfg.Progress}
	for _, ep := range e.eps {
		if ep.Sampler != nil {
			sctx, cancel := context.WithTimeout(ctx, sampleTimeout)
			if _, err := ep.Sampler.Sample(sctx, time.Now()); err != nil && ctx.Err() == nil {
				e.log.Printf("status of %s: %v", ep.Name, err)
			}
			cancel()
		}
	}
	t := time.NewTicker(iv)
	defer t.Stop()
	var lastEv, lastEx, lastErr int64
	last := time.Now()
	for {
		select {
		case <-stop:
			// The last interval's counters, also after Ctrl-C, unless the
			// server stopped answering.
			e.sampleStatus(context.WithoutCancel(ctx), time.Now(), true)
			return
		case now := <-t.C:
			e.sampleStatus(ctx, now, false)
			if now.Before(measured.start) {
				last = now
				continue
			}
			ev, ex, er := e.totals()
			secs := now.Sub(last).Seconds()
			if secs <= 0 {
				secs = iv.Seconds()
			}
			e.mu.Lock()
			p95 := e.interval.ValueAtQuantile(95)
			e.interval.Reset()
			e.mu.Unlock()
			line := fmt.Sprintf("[ %5.0fs ] thds: %d eps: %.1f qps: %.1f err/s: %.2f p95: %.3fms",
				now.Sub(measured.start).Seconds(), e.cfg.Threads, float64(ev-lastEv)/secs, float64(ex-lastEx)/secs,
				float64(er-lastErr)/secs, float64(p95)/1e6)
			if n := e.reconnects.Load(); n > 0 {
				line += fmt.Sprintf(" reconn: %d", n)
			}
			if st := e.stallNs.Load(); st > 0 {
				line += fmt.Sprintf(" writer-stall: %.0fms", float64(st)/1e6)
			}
			out.Printf("%s", line)
			lastEv, lastEx, lastErr, last = ev, ex, er, now
		}
	}
}

// How long a status sample may take; the final one is not waited for
// long, nor at all when the server stopped answering (unresponsive).
const (
	sampleTimeout      = 5 * time.Second
	finalSampleTimeout = 2 * time.Second
)

// sampleStatus samples every endpoint's counters and writes them; final is
// the sample at the end of the run.
func (e *engine) sampleStatus(ctx context.Context, now time.Time, final bool) {
	timeout := sampleTimeout
	if final {
		timeout = finalSampleTimeout
	}
	for _, ep := range e.eps {
		if ep.Sampler == nil || ep.down.Load() || (final && ep.unresponsive.Load()) {
			continue
		}
		sctx, cancel := context.WithTimeout(ctx, timeout)
		rows, err := ep.Sampler.Sample(sctx, now)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				if sctx.Err() != nil {
					ep.unresponsive.Store(true)
				}
				e.log.Printf("status of %s: %v", ep.Name, err)
			}
			continue
		}
		ep.unresponsive.Store(false)
		if len(rows) > 0 {
			if err := e.cfg.Sink.WriteStatus(rows); err != nil {
				e.cancel(fmt.Errorf("write status: %w", err))
			}
		}
	}
}
