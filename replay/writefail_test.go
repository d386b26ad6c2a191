package replay_test

import (
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// fullDiskSink fails every write after the first rows, as a full disk does.
type fullDiskSink struct {
	lockedSink
	after int
}

func (s *fullDiskSink) NewExecutionWriter() (replay.ExecutionWriter, error) { return s, nil }
func (s *fullDiskSink) Write(rows []results.Execution) error {
	if s.len() >= s.after {
		return &results.WriteError{Path: "executions-h-1.parquet.tmp", Err: syscall.ENOSPC}
	}
	return s.lockedSink.Write(rows)
}

// TestWriteErrorStopsTheRun: a results file that cannot be written stops
// the run at once with the error, rather than running on without
// recording.
func TestWriteErrorStopsTheRun(t *testing.T) {
	db := open(t, testdb.Fresh(t, "replay_writefail"), true)
	q := "SELECT 1"
	sc := &replay.Scenario{Name: "one", Count: 1, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	sink := &fullDiskSink{after: 100}
	res, err := replay.Run(context.Background(), replay.Config{
		RunID: "full", Threads: 2, Duration: time.Hour, Prepared: true, SkipTrx: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: true}}, Scenarios: []*replay.Scenario{sc}, Sink: sink,
	})
	var we *results.WriteError
	if !errors.As(err, &we) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("run: %v, want the write error", err)
	}
	if res == nil || res.Summary.Interrupted || res.End.Sub(res.Start) > 10*time.Minute {
		t.Fatalf("result %+v: the run did not stop at the error", res)
	}
}

// lockedSink records rows and can be read while the run writes.
type lockedSink struct {
	mu   sync.Mutex
	rows []results.Execution
}

func (s *lockedSink) NewExecutionWriter() (replay.ExecutionWriter, error) { return s, nil }
func (s *lockedSink) Write(rows []results.Execution) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows = append(s.rows, rows...)
	return nil
}
func (s *lockedSink) Close() error                            { return nil }
func (s *lockedSink) WritePlan(results.Plan) error            { return nil }
func (s *lockedSink) WriteStatus(rows []results.Status) error { return nil }

func (s *lockedSink) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.rows)
}
