package replay_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/status"
	"github.com/joinbench/joinbench/results"
)

const tableSize = 300

// open opens dsn as joinbench run does when direct (blocking sockets,
// prepared statements sent on them by the workers: Endpoint.Direct), or
// through the driver alone.
func open(t *testing.T, dsn string, direct bool) *sql.DB {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if direct && replay.UseBlockingIO(cfg) != "" {
		t.Skip("the test server's DSN cannot use blocking sockets")
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	return db
}

// paths are the two ways workers execute statements.
var paths = []struct {
	name   string
	direct bool
}{{"driver", false}, {"direct", true}}

// prepared returns a database holding the built-in tables, loaded small.
func prepared(t *testing.T, name string, direct bool) *sql.DB {
	t.Helper()
	db := open(t, testdb.Fresh(t, name), direct)
	prepareTables(t, db)
	return db
}

// prepareTables creates and loads the built-in tables, small.
func prepareTables(t *testing.T, db *sql.DB) {
	t.Helper()
	dist, _ := ddl.ParseDistribution("uniform")
	if _, err := load.Prepare(context.Background(), db, load.PrepareOptions{
		Gen: ddl.GenOptions{Seed: 1, TableSize: tableSize, Distribution: dist}, Threads: 2, ChunkSize: 1000,
	}); err != nil {
		t.Fatal(err)
	}
}

func builtinScenarios(t *testing.T) []*replay.Scenario {
	t.Helper()
	cp, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ddl.BuiltinSchema(ddl.SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*replay.Scenario
	for _, s := range cp.Scenarios() {
		tm, err := corpus.Compile(s, schema, corpus.CompileOptions{TableSize: tableSize})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, replay.FromTemplate(tm, 1))
	}
	return out
}

// TestRunEveryScenario replays the whole built-in corpus with result
// checksums and reads the Parquet files back: through the driver, and on
// the direct path joinbench run takes by default.
func TestRunEveryScenario(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) { runEveryScenario(t, p.direct) })
	}
}

func runEveryScenario(t *testing.T, direct bool) {
	db := prepared(t, "replay_all", direct)
	ctx := context.Background()
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	scens := builtinScenarios(t)
	if len(scens) != 45 {
		t.Fatalf("%d built-in scenarios", len(scens))
	}
	dir, err := results.Create(t.TempDir(), "itest", "client")
	if err != nil {
		t.Fatal(err)
	}
	const events = 6
	var log strings.Builder
	res, err := replay.Run(ctx, replay.Config{
		RunID: "itest", ClientHost: "client", Threads: 2, Events: events, Seed: 1, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: direct, Sampler: status.NewSampler(db, "test", "itest", false)}},
		Scenarios: scens, Sink: replay.ResultsSink(dir),
		Explain: replay.ExplainJSON, ExplainEvery: 2, Explainer: replay.NewExplainer(fl),
		Checksum: replay.NewChecksum, ReportInterval: 50 * time.Millisecond, Log: &log,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if err := dir.Close(); err != nil {
		t.Fatal(err)
	}
	// delete_inserts has two statements, every other scenario one.
	want := int64(events * (len(scens) + 1))
	if res.Summary.Executions != want || res.Summary.Errors != 0 || res.Summary.Events != events {
		t.Fatalf("summary %+v, want %d executions\n%s", res.Summary, want, log.String())
	}
	if s := res.Summary; s.ClientCPUSeconds <= 0 || math.Abs(s.ClientCPUPerQueryUs-s.ClientCPUSeconds*1e6/float64(s.Executions)) > 1 {
		t.Errorf("client CPU %.6f s, %.2f µs per execution: want the CPU the run used, and it per execution", s.ClientCPUSeconds, s.ClientCPUPerQueryUs)
	}
	perScen := map[string]int{}
	var rows int64
	_, err = results.ScanExecutions(dir.Path(), func(err error) { t.Error(err) }, func(e *results.Execution) error {
		rows++
		perScen[e.Scenario]++
		if e.LatencyNs <= 0 || e.ErrorCode != 0 || e.RunID != "itest" || e.Endpoint != "test" || e.TemplateHash == "" {
			return fmt.Errorf("row %+v", *e)
		}
		if e.PlanHash == "" {
			return fmt.Errorf("%s: no plan hash", e.Scenario)
		}
		if len(e.Params) == 0 {
			return fmt.Errorf("%s: no parameter values", e.Scenario)
		}
		if strings.HasPrefix(e.Scenario, "update") || e.Scenario == "index_updates" || e.Scenario == "delete_inserts" || e.Scenario == "point_update" {
			if e.Checksum != "" {
				return fmt.Errorf("%s: checksum on a write", e.Scenario)
			}
		} else if e.Checksum == "" {
			return fmt.Errorf("%s: no checksum", e.Scenario)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows != want || len(perScen) != 45 {
		t.Fatalf("read %d rows of %d scenarios, want %d of 45", rows, len(perScen), want)
	}
	plans, err := results.ReadPlans(dir.Path(), func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	planScen := map[string]bool{}
	for _, p := range plans {
		planScen[p.Scenario] = true
		// Query holds the statement with its values written in.
		if p.Explain == "" || p.PlanHash == "" || p.Query == "" || strings.Contains(p.Query, "= ?") || p.RunID != "itest" {
			t.Errorf("plan %+v", p)
		}
	}
	if len(planScen) != 45 {
		t.Errorf("plans of %d scenarios, want 45", len(planScen))
	}
	var statusRows int
	if err := results.ScanStatus(dir.Path(), nil, func(*results.Status) error { statusRows++; return nil }); err != nil {
		t.Fatal(err)
	}
	if statusRows == 0 {
		t.Error("no status rows")
	}
}

// TestQueryTimeoutKillsTheQuery checks that --query-timeout stops the
// statement on the server and records it.
func TestQueryTimeoutKillsTheQuery(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) { queryTimeoutKillsTheQuery(t, p.direct) })
	}
}

func queryTimeoutKillsTheQuery(t *testing.T, direct bool) {
	db := open(t, testdb.Fresh(t, "replay_timeout"), direct)
	slow := &replay.Scenario{Name: "slow", Count: 1, Queries: []string{"SELECT BENCHMARK(10000000000, MD5('x'))"},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer("SELECT BENCHMARK(10000000000, MD5('x'))") }}
	sink := &countSink{}
	start := time.Now()
	res, err := replay.Run(context.Background(), replay.Config{
		RunID: "t", Threads: 1, Events: 2, SkipTrx: true, QueryTimeout: 300 * time.Millisecond, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: direct}}, Scenarios: []*replay.Scenario{slow}, Sink: sink,
	})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > time.Minute {
		t.Fatal("the query was not killed")
	}
	if res.Summary.Errors != 2 || len(sink.rows) != 2 || sink.rows[0].ErrorCode != 1317 {
		t.Fatalf("summary %+v rows %+v", res.Summary, sink.rows)
	}
}

// TestLostConnectionsReconnect kills the workers' connections mid-run, as
// a server restart would: the errors are recorded and the run goes on.
func TestLostConnectionsReconnect(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) { lostConnectionsReconnect(t, p.direct) })
	}
}

func lostConnectionsReconnect(t *testing.T, direct bool) {
	dsn := testdb.Fresh(t, "replay_reconnect")
	db := open(t, dsn, direct)
	var dbName string
	if err := db.QueryRow("SELECT DATABASE()").Scan(&dbName); err != nil {
		t.Fatal(err)
	}
	q := "SELECT SLEEP(0.01)"
	sc := &replay.Scenario{Name: "tick", Count: 1, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	// The workers' statements are killed once some are seen running (polled
	// for: under the race detector connecting takes a while); killed is read
	// only once the killer is done, which may be after Run returns.
	killed := 0
	killerDone := make(chan struct{})
	go func() {
		defer close(killerDone)
		for start := time.Now(); killed == 0 && time.Since(start) < time.Second; time.Sleep(20 * time.Millisecond) {
			// Executing, not being prepared: a connection killed while the
			// worker prepares its statements fails to open, which is a
			// first connection retried, not a reconnect of the run.
			rows, err := admin.Query("SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID() AND INFO LIKE 'SELECT SLEEP%' AND COMMAND IN ('Query', 'Execute')", dbName)
			if err != nil {
				t.Error(err)
				return
			}
			var ids []int64
			for rows.Next() {
				var id int64
				_ = rows.Scan(&id)
				ids = append(ids, id)
			}
			rows.Close()
			for _, id := range ids {
				if _, err := admin.Exec(fmt.Sprintf("KILL %d", id)); err == nil {
					killed++
				}
			}
		}
	}()
	sink := &countSink{}
	var log strings.Builder
	res, err := replay.Run(context.Background(), replay.Config{
		RunID: "t", Threads: 2, Duration: 1500 * time.Millisecond, SkipTrx: true, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: direct}}, Scenarios: []*replay.Scenario{sc}, Sink: sink, Log: &log,
	})
	<-killerDone
	if err != nil {
		t.Fatal(err)
	}
	if killed == 0 {
		t.Skip("no worker connection was caught running")
	}
	if res.Summary.Reconnects == 0 || res.Summary.Errors == 0 {
		t.Fatalf("summary %+v\n%s", res.Summary, log.String())
	}
	last := sink.rows[len(sink.rows)-1]
	if last.ErrorCode != 0 {
		t.Fatalf("the run did not go on after the reconnect: last row %+v", last)
	}
	if !strings.Contains(log.String(), "reconnected") {
		t.Errorf("log:\n%s", log.String())
	}
}

type constRenderer string

func (c constRenderer) Next() []replay.Statement     { return []replay.Statement{{SQL: string(c)}} }
func (c constRenderer) Values(dst []string) []string { return dst }

type countSink struct{ rows []results.Execution }

func (s *countSink) NewExecutionWriter() (replay.ExecutionWriter, error) { return s, nil }
func (s *countSink) Write(rows []results.Execution) error {
	s.rows = append(s.rows, rows...)
	return nil
}
func (s *countSink) Close() error                            { return nil }
func (s *countSink) WritePlan(results.Plan) error            { return nil }
func (s *countSink) WriteStatus(rows []results.Status) error { return nil }

// TestPacingOnDirectWorkers: workers with a thread of their own sleep in
// the kernel between paced events; the rate is kept, and a run stopped
// while they sleep ends at once.
func TestPacingOnDirectWorkers(t *testing.T) {
	db := open(t, testdb.Fresh(t, "replay_paced"), true)
	q := "SELECT 1"
	sc := &replay.Scenario{Name: "tick", Count: 1, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	sink := &countSink{}
	res, err := replay.Run(context.Background(), replay.Config{
		RunID: "t", Threads: 2, Duration: time.Second, Rate: 200, SkipTrx: true, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: true}}, Scenarios: []*replay.Scenario{sc}, Sink: sink,
	})
	if err != nil {
		t.Fatal(err)
	}
	if ev := res.Summary.Events; ev < 180 || ev > 201 {
		t.Errorf("%d events in 1 s at 200/s", ev)
	}
	for _, r := range sink.rows {
		if r.IntendedStart == nil || r.LatencyNs <= 0 {
			t.Fatalf("paced row %+v", r)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := replay.Run(ctx, replay.Config{
		RunID: "t2", Threads: 2, Rate: 0.5, SkipTrx: true, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: true}}, Scenarios: []*replay.Scenario{sc}, Sink: &countSink{},
	}); err != nil && !strings.Contains(err.Error(), "context") {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 30*time.Second { // liveness, not speed: without the stop it never ends
		t.Errorf("a run stopped while its workers slept took %s to end", took)
	}
}

// TestPathsAgreeOnResults replays every read-only scenario of the built-in
// corpus twice with the same values, through the driver and on the direct
// path, and checks that each execution returned the same rows (count and
// checksum): the direct path decodes rows into the driver's text.
func TestPathsAgreeOnResults(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_paths_agree")
	var reads []*replay.Scenario
	for _, s := range builtinScenarios(t) {
		if !s.Write {
			reads = append(reads, s)
		}
	}
	results := map[bool]map[string]string{}
	for _, direct := range []bool{false, true} {
		db := open(t, dsn, direct)
		if !direct {
			prepareTables(t, db)
		}
		sink := &countSink{}
		res, err := replay.Run(context.Background(), replay.Config{
			RunID: "agree", Threads: 1, Events: 3, Seed: 7, Prepared: true, Checksum: replay.NewChecksum,
			Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: direct}}, Scenarios: reads, Sink: sink,
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Summary.Errors != 0 {
			t.Fatalf("direct=%v: %d errors", direct, res.Summary.Errors)
		}
		got := map[string]string{}
		for _, r := range sink.rows {
			got[fmt.Sprintf("%s/%d/%d", r.Scenario, r.Event, r.StatementSeq)] = fmt.Sprintf("%d rows, %s", r.Rows, r.Checksum)
		}
		results[direct] = got
	}
	if len(results[true]) != len(results[false]) || len(results[false]) == 0 {
		t.Fatalf("%d executions on the direct path, %d through the driver", len(results[true]), len(results[false]))
	}
	for k, want := range results[false] {
		if got := results[true][k]; got != want {
			t.Errorf("%s: direct path %s, driver %s", k, got, want)
		}
	}
}
