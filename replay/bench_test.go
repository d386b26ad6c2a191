package replay_test

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

type pointRenderer struct {
	r   *rand.Rand
	out [1]replay.Statement
	arg [1]any
	id  int64
}

func (p *pointRenderer) Next() []replay.Statement {
	p.id = p.r.Int64N(1000) + 1
	p.arg[0] = p.id
	p.out[0] = replay.Statement{SQL: "SELECT c FROM pt WHERE id = ?", Args: p.arg[:]}
	return p.out[:]
}
func (p *pointRenderer) Values(dst []string) []string {
	return append(dst, strconv.FormatInt(p.id, 10))
}

// rusage is the user and system CPU time of this process so far.
func rusage() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

type discardWriter struct{}

func (discardWriter) Write([]results.Execution) error { return nil }
func (discardWriter) Close() error                    { return nil }

// discardSink records nothing: the engine's cost without the Parquet
// encoding.
type discardSink struct{}

func (discardSink) NewExecutionWriter() (replay.ExecutionWriter, error) { return discardWriter{}, nil }
func (discardSink) WritePlan(results.Plan) error                        { return nil }
func (discardSink) WriteStatus([]results.Status) error                  { return nil }

// BenchmarkPointSelect measures the engine's overhead per statement on the
// cheapest statement there is: a point select by primary key, results
// written to Parquet as they come (parquet), to a journal made Parquet at
// the end (journal, what joinbench run does), or thrown away (discard:
// the cost of recording is the difference).
func BenchmarkPointSelect(b *testing.B) {
	cfg, err := mysql.ParseDSN(testdb.Fresh(b, "replay_bench"))
	if err != nil {
		b.Fatal(err)
	}
	// As joinbench run sets it up: blocking sockets, statements sent on
	// them directly.
	direct := replay.UseBlockingIO(cfg) == ""
	defer runtime.GOMAXPROCS(replay.ProcsForBlockingIO(2) - 2)
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		b.Fatal(err)
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE pt (id INT PRIMARY KEY, c CHAR(120))"); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO pt SELECT seq, REPEAT('x', 120) FROM seq_1_to_1000"); err != nil {
		b.Skip("needs MariaDB's sequence engine:", err)
	}
	sc := &replay.Scenario{Name: "point", Count: 1, Queries: []string{"SELECT c FROM pt WHERE id = ?"},
		NewRenderer: func(seed uint64, thread int) replay.Renderer {
			return &pointRenderer{r: rand.New(rand.NewPCG(seed, uint64(thread)))}
		}}
	for _, sink := range []string{"parquet", "journal", "discard"} {
		b.Run(sink, func(b *testing.B) {
			var s replay.Sink = discardSink{}
			if sink != "discard" {
				dir, err := results.CreateWithOptions(b.TempDir(), "bench", "client", results.Options{Journal: sink == "journal"})
				if err != nil {
					b.Fatal(err)
				}
				defer dir.Close()
				s = replay.ResultsSink(dir)
			}
			b.ReportAllocs()
			b.ResetTimer()
			user0, sys0 := rusage()
			res, err := replay.Run(context.Background(), replay.Config{
				RunID: "bench", Threads: 2, Events: int64(b.N), SkipTrx: true, Prepared: true,
				Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: direct}}, Scenarios: []*replay.Scenario{sc},
				Sink: s,
			})
			if err != nil {
				b.Fatal(err)
			}
			user, sys := rusage()
			b.ReportMetric(res.Summary.QPS, "queries/s")
			// CPU per query, split: the user time is the client's own
			// code (the writer's share is parquet's minus discard's), the
			// system time the socket calls and the scheduler.
			q := float64(res.Summary.Executions)
			b.ReportMetric(float64((user-user0).Microseconds())/q, "user-us/query")
			b.ReportMetric(float64((sys-sys0).Microseconds())/q, "sys-us/query")
		})
	}
}
