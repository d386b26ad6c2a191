package replay_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// captureSink keeps the rows a run records.
type captureSink struct {
	mu   sync.Mutex
	rows []results.Execution
}

func (c *captureSink) NewExecutionWriter() (replay.ExecutionWriter, error) {
	return captureWriter{c}, nil
}
func (c *captureSink) WritePlan(results.Plan) error       { return nil }
func (c *captureSink) WriteStatus([]results.Status) error { return nil }

type captureWriter struct{ c *captureSink }

func (w captureWriter) Write(rows []results.Execution) error {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	for _, r := range rows {
		r.Params = nil
		w.c.rows = append(w.c.rows, r)
	}
	return nil
}
func (captureWriter) Close() error { return nil }

var progressQPS = regexp.MustCompile(`^\[ +(\d+)s \] thds: \d+ eps: [\d.]+ qps: ([\d.]+) err/s`)

// TestProgressLinesCountTheReportSeconds: each progress line counts the
// executions that started in one second of the report's timeline (seconds
// aligned on the epoch, by start time), the same ones to the last.
func TestProgressLinesCountTheReportSeconds(t *testing.T) {
	defer replay.LengthenLateLine(time.Minute)()
	db := open(t, testdb.Fresh(t, "replay_progress"), true)
	sc := &replay.Scenario{Name: "point", Count: 2, Queries: []string{"SELECT ? + 1"},
		NewRenderer: func(seed uint64, thread int) replay.Renderer {
			return &valueRenderer{r: rand.New(rand.NewPCG(seed, uint64(thread)))}
		}}
	sink := &captureSink{}
	var lines bytes.Buffer
	_, err := replay.Run(context.Background(), replay.Config{
		RunID: "progress", Threads: 2, Duration: 3500 * time.Millisecond, Warmup: 300 * time.Millisecond, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db}}, Scenarios: []*replay.Scenario{sc},
		Sink: sink, ReportInterval: time.Second, Progress: &lines,
	})
	if err != nil {
		t.Fatal(err)
	}
	perSecond := map[int64]int64{}
	firstRow := int64(-1)
	for _, r := range sink.rows {
		s := r.Start.UnixNano() / int64(time.Second)
		perSecond[s]++
		if firstRow < 0 || s < firstRow {
			firstRow = s
		}
	}
	var counts []int64
	for _, l := range bytes.Split(bytes.TrimSpace(lines.Bytes()), []byte("\n")) {
		m := progressQPS.FindSubmatch(l)
		if m == nil {
			t.Fatalf("progress line %q", l)
		}
		qps, _ := strconv.ParseFloat(string(m[2]), 64)
		counts = append(counts, int64(qps))
	}
	if len(counts) < 3 {
		t.Fatalf("%d progress lines:\n%s", len(counts), lines.String())
	}
	// The lines are of consecutive seconds from the measured phase's
	// first; the first with executions is the first row's.
	lead := 0
	for lead < len(counts) && counts[lead] == 0 {
		lead++
	}
	for i, n := range counts {
		if want := perSecond[firstRow-int64(lead)+int64(i)]; n != want {
			t.Errorf("line %d counts %d executions, its second of the results %d\n%s", i+1, n, want, lines.String())
		}
	}
}

type valueRenderer struct {
	r   *rand.Rand
	out [1]replay.Statement
	arg [1]any
	v   int64
}

func (p *valueRenderer) Next() []replay.Statement {
	p.v = p.r.Int64N(1000)
	p.arg[0] = p.v
	p.out[0] = replay.Statement{SQL: "SELECT ? + 1", Args: p.arg[:]}
	return p.out[:]
}

func (p *valueRenderer) Values(dst []string) []string { return append(dst, strconv.FormatInt(p.v, 10)) }
