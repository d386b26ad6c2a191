package report

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/joinbench/joinbench/replay/results"
)

// t0 is the start of every fixture run.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// runFixture is a run to write in the results layout.
type runFixture struct {
	id     string
	info   *results.Run
	execs  []results.Execution
	plans  []results.Plan
	status []results.Status
	hosts  int // executions split over this many client-host files (default 2)
}

// write lays the run out under parent as run=<id>/ and returns its folder.
func (f runFixture) write(t testing.TB, parent string) string {
	t.Helper()
	dir := filepath.Join(parent, "run="+f.id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	hosts := max(f.hosts, 1)
	if f.hosts == 0 {
		hosts = 2
	}
	parts := make([][]results.Execution, hosts)
	for i, e := range f.execs {
		e.RunID = f.id
		e.ClientHost = fmt.Sprintf("client%d", i%hosts)
		parts[i%hosts] = append(parts[i%hosts], e)
	}
	for h, rows := range parts {
		writeParquet(t, filepath.Join(dir, fmt.Sprintf("executions-client%d-0.parquet", h)), rows)
	}
	if f.plans != nil {
		writeParquet(t, filepath.Join(dir, results.PlansFile), f.plans)
	}
	if f.status != nil {
		writeParquet(t, filepath.Join(dir, "status-client0-0.parquet"), f.status)
	}
	info := f.info
	if info == nil {
		info = &results.Run{RunID: f.id, ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb", Endpoints: []string{"127.0.0.1:3306"}}
	}
	b, _ := json.Marshal(info)
	if err := os.WriteFile(filepath.Join(dir, results.RunFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixtureRowGroup is small so that tests cross row groups; the writer of
// real runs uses 64k rows.
var fixtureRowGroup int64 = 700

func writeParquet[T any](t testing.TB, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, parquet.MaxRowsPerRowGroup(fixtureRowGroup), parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// scen describes the executions of one scenario in a fixture.
type scen struct {
	name     string
	n        int
	medianMs float64 // log-normal latencies around this median
	sigma    float64 // spread of log latency (default 0.25)
	plan     string
	errEvery int // every errEvery-th execution fails (0: none)
	errCode  int32
	// checksum returns the result checksum for parameter set k (default:
	// a function of the scenario and k only, as a correct server gives).
	checksum func(k int) string
}

// gen makes executions of the scenarios spread over about seconds.
func gen(seed uint64, seconds int, scs ...scen) []results.Execution {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []results.Execution
	for _, s := range scs {
		sigma := s.sigma
		if sigma == 0 {
			sigma = 0.25
		}
		for i := 0; i < s.n; i++ {
			k := i % 17
			start := t0.Add(time.Duration(float64(i) / float64(s.n) * float64(seconds) * float64(time.Second)))
			lat := int64(s.medianMs * 1e6 * math.Exp(rng.NormFloat64()*sigma))
			e := results.Execution{
				Scenario: s.name, TemplateHash: "t-" + s.name, Endpoint: "127.0.0.1:3306",
				Thread: int32(i % 4), Event: int64(i), Start: start, LatencyNs: lat, Rows: 100,
				PlanHash: s.plan, Params: []string{"main1", fmt.Sprintf("p%d", k)},
				Checksum: fmt.Sprintf("sum-%s-%d", s.name, k),
			}
			if s.checksum != nil {
				e.Checksum = s.checksum(k)
			}
			if s.errEvery > 0 && i%s.errEvery == 0 {
				e.ErrorCode, e.SQLState, e.ErrorMessage = s.errCode, "HY000", "boom"
				e.Checksum, e.PlanHash, e.Rows = "", "", 0
			}
			out = append(out, e)
		}
	}
	return out
}

func plan(scenario, hash, tree string) results.Plan {
	return results.Plan{Scenario: scenario, Endpoint: "127.0.0.1:3306", PlanHash: hash, Format: "tree", Explain: tree, FirstSeen: t0}
}
