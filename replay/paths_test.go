package replay

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

func TestPathTally(t *testing.T) {
	var p pathTally
	if r := p.record("a"); r.Path != results.PathNone || r.Endpoint != "a" {
		t.Errorf("no connection: %+v", r)
	}
	if p.add(true, false, "") || p.add(true, false, "") {
		t.Error("a direct connection has no reason to note")
	}
	if r := p.record("a"); r.Path != results.PathDirect || r.DirectConnections != 2 || r.Reasons != nil {
		t.Errorf("direct: %+v", r)
	}
	if !p.add(false, false, "tls") || p.add(false, false, "tls") || !p.add(false, true, "time.Time") {
		t.Error("each reason is new once")
	}
	r := p.record("a")
	if r.Path != results.PathMixed || r.DirectConnections != 2 || r.DriverConnections != 2 || r.DriverStatements != 1 ||
		!slices.Equal(r.Reasons, []string{"tls", "time.Time"}) {
		t.Errorf("mixed: %+v", r)
	}
	var q pathTally
	q.add(false, false, whyDriverPath)
	if r := q.record("b"); r.Path != results.PathDriver || r.DriverConnections != 1 {
		t.Errorf("driver: %+v", r)
	}
}

// TestFallbacksLoggedOnceAndRecorded: an endpoint that cannot have blocking
// sockets (its DSN sets a read timeout), and a direct endpoint whose dial
// hands the worker no socket, fall back to the driver; each says so once in
// the log however many connections its workers open, and the run records
// the path and the reason per endpoint.
func TestFallbacksLoggedOnceAndRecorded(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_paths")
	ctx := context.Background()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ReadTimeout = 30 * time.Second
	timeouts, err := openEndpoint(ctx, server.Endpoint{Name: "timeouts", DSN: cfg.FormatDSN()}, openOptions{Prepared: true, MaxIdle: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer timeouts.DB.Close()
	if timeouts.Direct || !strings.Contains(timeouts.Fallback, "timeout") {
		t.Fatalf("endpoint with a read timeout: direct %v, fallback %q", timeouts.Direct, timeouts.Fallback)
	}
	plain, err := sql.Open("mysql", dsn) // dials sockets on Go's poller, hands none over
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()

	var log strings.Builder
	res, err := Run(ctx, Config{
		RunID: "paths", Threads: 4, Events: 40, Reconnect: 2, Prepared: true, SkipTrx: true,
		Endpoints: []Endpoint{timeouts, {Name: "nosocket", DB: plain, Direct: true}},
		Scenarios: []*Scenario{scenario("one", 1, "SELECT 1")}, Sink: &memSink{}, Log: &log,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		endpoint, why string
	}{{"timeouts", timeouts.Fallback}, {"nosocket", whyPooled}} {
		line := want.endpoint + ": statements go through the driver, not the direct path: " + want.why
		if n := strings.Count(log.String(), line); n != 1 {
			t.Errorf("%q logged %d times, want once:\n%s", line, n, log.String())
		}
	}
	if len(res.Paths) != 2 {
		t.Fatalf("paths %+v", res.Paths)
	}
	var conns int64
	for i, want := range []string{timeouts.Fallback, whyPooled} {
		p := res.Paths[i]
		if p.Path != results.PathDriver || p.DirectConnections != 0 || p.DriverConnections < 1 || !slices.Equal(p.Reasons, []string{want}) {
			t.Errorf("%s: %+v; want driver for %q", p.Endpoint, p, want)
		}
		conns += p.DriverConnections
	}
	// Every connection is reopened after 2 events: the reasons were met
	// many times and logged once.
	if conns < 20 {
		t.Errorf("%d connections over 40 events, want at least 20", conns)
	}
}
