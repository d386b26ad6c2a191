package promexport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
)

// Path is where the metrics are served.
const Path = "/metrics"

// Server serves the metrics of the runs it watches on one address.
type Server struct {
	ln   net.Listener
	srv  *http.Server
	runs *collector
	// closing is set once the runs are over; lastScrape is closed by the
	// first scrape that started after that, which read the final values.
	closing    atomic.Bool
	lastScrape chan struct{}
	lastOnce   atomic.Bool
	served     chan struct{} // closed when Serve returns
}

// Listen checks addr (HOST:PORT, HOST empty for every interface, PORT 0
// for any free one) and starts serving on it. A malformed address or one
// that cannot be listened on (taken, not this machine's) is a usage error
// naming flag, the flag that gave it.
func Listen(flag, addr string) (*Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, usage.Errorf("%s %q: want HOST:PORT, such as :9464 or 127.0.0.1:9464", flag, addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return nil, usage.Errorf("%s %q: the port must be a number from 0 to 65535", flag, addr)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Err != nil {
			err = op.Err
		}
		return nil, usage.Errorf("%s %s: cannot listen: %v", flag, addr, err)
	}
	s := &Server{ln: ln, runs: newCollector(), lastScrape: make(chan struct{}), served: make(chan struct{})}
	reg := prometheus.NewRegistry()
	reg.MustRegister(s.runs, collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
	mux := http.NewServeMux()
	mux.HandleFunc(Path, func(w http.ResponseWriter, r *http.Request) {
		final := s.closing.Load()
		metrics.ServeHTTP(w, r)
		if final && s.lastOnce.CompareAndSwap(false, true) {
			close(s.lastScrape)
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "joinbench: metrics at %s\n", Path)
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln) // ends with Close
	}()
	return s, nil
}

// Addr is the address served, with the port chosen when it was 0.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is the metrics' address as a scraper would name it.
func (s *Server) URL() string { return "http://" + s.Addr() + Path }

// Watch adds a run (replay.Options.Watch).
func (s *Server) Watch(l *replay.Live) { s.runs.watch(l) }

// Close stops serving once the runs are over. With linger, it first waits
// for a scrape that starts after the call, which reads the final values,
// for at most linger, and not once ctx is done (an interrupted command
// does not wait); log says that it waits.
func (s *Server) Close(ctx context.Context, linger time.Duration, log io.Writer) error {
	s.closing.Store(true)
	if linger > 0 && ctx.Err() == nil {
		fmt.Fprintf(log, "metrics: waiting up to %s for a last scrape of %s\n", linger, s.URL())
		t := time.NewTimer(linger)
		select {
		case <-s.lastScrape:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(sctx)
	<-s.served
	if err != nil {
		return fmt.Errorf("metrics server: %w", err)
	}
	return nil
}
