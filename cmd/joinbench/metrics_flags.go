package main

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/joinbench/joinbench/internal/promexport"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
)

// metricsFlags serve a command's runs as Prometheus metrics (run, ab).
type metricsFlags struct {
	MetricsAddr   string        `group:"Metrics" placeholder:"HOST:PORT" help:"Serve the run's live state as Prometheus/OpenMetrics metrics on HOST:PORT at /metrics (see docs/metrics.md): per scenario executions, errors, latency histogram and threads in flight; per endpoint throughput and write stall; the run's progress. A malformed or taken address is a usage error, before anything connects."`
	MetricsLinger time.Duration `default:"0s" group:"Metrics" help:"With --metrics-addr: once the runs are over, keep serving until a scrape has read the final values, for at most this long (the scrape interval or more; 0 = stop at once)."`
}

// metricsServer is the server of --metrics-addr; nil when not asked for.
type metricsServer struct {
	srv    *promexport.Server
	linger time.Duration
	log    io.Writer
	// ran says a run started: without one there is nothing to linger for.
	ran atomic.Bool
}

// serve starts the server --metrics-addr asks for, and has o's runs
// watched by it.
func (m *metricsFlags) serve(o *replay.Options, log io.Writer) (*metricsServer, error) {
	if m.MetricsLinger < 0 {
		return nil, usage.Errorf("--metrics-linger cannot be negative, got %s", m.MetricsLinger)
	}
	if m.MetricsAddr == "" {
		return nil, nil
	}
	srv, err := promexport.Listen("--metrics-addr", m.MetricsAddr)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "metrics: serving %s\n", srv.URL())
	s := &metricsServer{srv: srv, linger: m.MetricsLinger, log: log}
	o.Watch = func(l *replay.Live) {
		s.ran.Store(true)
		srv.Watch(l)
	}
	return s, nil
}

// close stops the server, after its linger when a run started; err is
// the command's, which comes first.
func (s *metricsServer) close(ctx context.Context, err error) error {
	if s == nil {
		return err
	}
	linger := s.linger
	if !s.ran.Load() {
		linger = 0
	}
	if cerr := s.srv.Close(ctx, linger, s.log); err == nil {
		err = cerr
	}
	return err
}
