package experiment

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
)

// cancelOn is a lesson's log that cancels the lesson when a line holding
// mark is written, as Ctrl-C would at that moment.
type cancelOn struct {
	mu     sync.Mutex
	mark   string
	cancel context.CancelFunc
	log    strings.Builder
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log.Write(p)
	if strings.Contains(string(p), c.mark) {
		c.cancel()
	}
	return len(p), nil
}

// hot-vs-uniform interrupted as its second pair of runs starts, on the
// test server at a tiny size: Run returns the page of the first pair, no
// error, the tally 1 of 4 and interrupted, no verdict, the run folders
// of what was measured; the pair cut is not in the table.
func TestHotUniformInterruptedWritesItsPage(t *testing.T) {
	dsn := testdb.Fresh(t, "experiment_hot_interrupt")
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	tgt := server.New([]server.Endpoint{server.NewEndpoint("test", cfg)}, cfg.DBName, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &cancelOn{mark: "run w0-uniform-2:", cancel: cancel}
	o := Options{Out: t.TempDir(), Threads: 1, TableSize: 200, Seed: 1, Window: time.Second, Repetitions: 2,
		WritePercents: []int{0, 50}, Log: log}
	p, err := Run(ctx, "hot-vs-uniform", tgt, o)
	if err != nil {
		t.Fatalf("interrupted lesson: %v\n%s", err, log.log.String())
	}
	if want := (Tally{Unit: "pairs of runs", Planned: 4, Judged: 1, Interrupted: true}); p.Tally != want {
		t.Errorf("tally %+v, want %+v", p.Tally, want)
	}
	if !strings.HasPrefix(p.Verdict, "none: interrupted after 1 of 4 pairs") {
		t.Errorf("verdict %q", p.Verdict)
	}
	if len(p.Table.Rows) != 1 || p.Table.Rows[0][0] != "0%" {
		t.Errorf("rows %q, want the one mix measured", p.Table.Rows)
	}
	if len(p.Runs) < 2 {
		t.Errorf("runs %q, want the first pair's at least", p.Runs)
	}
	if p.Err() != nil {
		t.Errorf("a page with a judged pair is an error: %v", p.Err())
	}
	paths, err := p.Write(o.Out)
	if err != nil || len(paths) != 2 {
		t.Errorf("write: %v, %v", paths, err)
	}
}

// chunked-dml interrupted as its second method's run starts, on the test
// server at a tiny size: the page holds the first method, its tally 1
// of 2 and interrupted, and no verdict.
func TestChunkedDMLInterruptedWritesItsPage(t *testing.T) {
	dsn := testdb.Fresh(t, "experiment_chunked_interrupt")
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	tgt := server.New([]server.Endpoint{server.NewEndpoint("test", cfg)}, cfg.DBName, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &cancelOn{mark: "run chunked 5000:", cancel: cancel}
	o := Options{Out: t.TempDir(), Threads: 1, TableSize: 200, Seed: 1, Window: time.Second, Repetitions: 1,
		Rows: 1000, ActionTime: time.Second, Log: log}
	p, err := Run(ctx, "chunked-dml", tgt, o)
	if err != nil {
		t.Fatalf("interrupted lesson: %v\n%s", err, log.log.String())
	}
	if want := (Tally{Unit: "methods", Planned: 2, Judged: 1, Interrupted: true}); p.Tally != want {
		t.Errorf("tally %+v, want %+v", p.Tally, want)
	}
	if !strings.HasPrefix(p.Verdict, "none: interrupted after 1 of 2 methods") {
		t.Errorf("verdict %q", p.Verdict)
	}
	if len(p.Table.Rows) != 1 || p.Table.Rows[0][0] != "single" {
		t.Errorf("rows %q, want the single DELETE alone", p.Table.Rows)
	}
}
