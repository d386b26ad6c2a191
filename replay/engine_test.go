package replay

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"
	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/results"
)

// memSink keeps everything a run records in memory.
type memSink struct {
	mu     sync.Mutex
	rows   []results.Execution
	plans  []results.Plan
	status []results.Status
	closed int
}

func (m *memSink) NewExecutionWriter() (ExecutionWriter, error) { return memWriter{m}, nil }
func (m *memSink) WritePlan(p results.Plan) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.plans = append(m.plans, p)
	return nil
}
func (m *memSink) WriteStatus(rows []results.Status) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.status = append(m.status, rows...)
	return nil
}

type memWriter struct{ m *memSink }

func (w memWriter) Write(rows []results.Execution) error {
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	for _, r := range rows {
		r.Params = append([]string(nil), r.Params...)
		w.m.rows = append(w.m.rows, r)
	}
	return nil
}
func (w memWriter) Close() error { w.m.mu.Lock(); w.m.closed++; w.m.mu.Unlock(); return nil }

// fixedRenderer renders the same statements with a counter as argument.
type fixedRenderer struct {
	sqls []string
	n    int
	out  []Statement
}

func (r *fixedRenderer) Next() []Statement {
	r.n++
	r.out = r.out[:0]
	for _, q := range r.sqls {
		r.out = append(r.out, Statement{SQL: q, Args: []any{r.n}})
	}
	return r.out
}
func (r *fixedRenderer) Values(dst []string) []string { return append(dst, strconv.Itoa(r.n)) }

func scenario(name string, count int, sqls ...string) *Scenario {
	return &Scenario{Name: name, Hash: "h-" + name, Count: count, Queries: sqls,
		NewRenderer: func(seed uint64, thread int) Renderer { return &fixedRenderer{sqls: sqls} }}
}

func newMock(t *testing.T) (*sql.DB, sqlmock.Sqlmock) {
	t.Helper()
	db, mock, err := sqlmock.New(sqlmock.QueryMatcherOption(sqlmock.QueryMatcherEqual))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, mock
}

// expectConnect expects what a worker sends when it connects.
func expectConnect(mock sqlmock.Sqlmock, id int) {
	mock.ExpectQuery("SELECT CONNECTION_ID()").WillReturnRows(sqlmock.NewRows([]string{"id"}).AddRow(id))
}

func baseConfig(db *sql.DB, sink Sink, scens ...*Scenario) Config {
	return Config{
		RunID: "r1", ClientHost: "client", Threads: 1,
		Endpoints: []Endpoint{{Name: "db:3306", DB: db}},
		Scenarios: scens, Sink: sink,
	}
}

func TestEventRunsEachScenarioCountTimesInATransaction(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const qa, qb = "SELECT a FROM t WHERE id = ?", "UPDATE t SET b = 1 WHERE id = ?"
	for ev := 0; ev < 3; ev++ {
		mock.ExpectExec("BEGIN").WillReturnResult(sqlmock.NewResult(0, 0))
		for i := 0; i < 2; i++ {
			mock.ExpectQuery(qa).WithArgs(ev*2 + i + 1).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1).AddRow(2))
		}
		mock.ExpectExec(qb).WithArgs(ev + 1).WillReturnResult(sqlmock.NewResult(0, 3))
		mock.ExpectExec("COMMIT").WillReturnResult(sqlmock.NewResult(0, 0))
	}
	sink := &memSink{}
	cfg := baseConfig(db, sink, scenario("a", 2, qa), scenario("b", 1, qb), scenario("off", 0, "SELECT 1"))
	cfg.Events = 3
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Fatal(err)
	}
	if len(sink.rows) != 9 || sink.closed != 1 {
		t.Fatalf("got %d rows, writer closed %d times; want 9, 1", len(sink.rows), sink.closed)
	}
	for i, r := range sink.rows {
		wantScen, wantRows := "a", int64(2)
		if i%3 == 2 {
			wantScen, wantRows = "b", 3
		}
		if r.Scenario != wantScen || r.Rows != wantRows || r.Event != int64(i/3) || r.StatementSeq != int32(i%3) ||
			r.Endpoint != "db:3306" || r.RunID != "r1" || r.TemplateHash != "h-"+wantScen || r.ErrorCode != 0 ||
			r.IntendedStart != nil || len(r.Params) != 1 {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	if res.Summary.Events != 3 || res.Summary.Executions != 9 || res.Summary.Errors != 0 {
		t.Errorf("summary %+v", res.Summary)
	}
	if len(res.Summary.Scenarios) != 2 || res.Summary.Scenarios[0].Executions != 6 || res.Summary.Scenarios[1].Executions != 3 {
		t.Errorf("scenarios %+v", res.Summary.Scenarios)
	}
}

func TestPreparedOncePerConnection(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const q = "SELECT a FROM t WHERE id = ?"
	p := mock.ExpectPrepare(q)
	for i := 1; i <= 4; i++ {
		p.ExpectQuery().WithArgs(i).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
	}
	sink := &memSink{}
	cfg := baseConfig(db, sink, scenario("a", 1, q))
	cfg.Events, cfg.SkipTrx, cfg.Prepared = 4, true, true
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Fatal(err)
	}
	if len(sink.rows) != 4 {
		t.Fatalf("got %d rows", len(sink.rows))
	}
}

func TestDeadlockIsRetriedInAFreshTransaction(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const q = "UPDATE t SET b = 1 WHERE id = ?"
	deadlock := &mysql.MySQLError{Number: 1213, SQLState: [5]byte{'4', '0', '0', '0', '1'}, Message: "Deadlock found"}
	mock.ExpectExec("BEGIN").WillReturnResult(sqlmock.NewResult(0, 0))
	mock.ExpectExec(q).WithArgs(1).WillReturnError(deadlock)
	mock.ExpectExec("ROLLBACK").WillReturnResult(sqlmock.NewResult(0, 0))
	mock.ExpectExec("BEGIN").WillReturnResult(sqlmock.NewResult(0, 0))
	mock.ExpectExec(q).WithArgs(1).WillReturnResult(sqlmock.NewResult(0, 1))
	mock.ExpectExec("COMMIT").WillReturnResult(sqlmock.NewResult(0, 0))
	sink := &memSink{}
	cfg := baseConfig(db, sink, scenario("u", 1, q))
	cfg.Events = 1
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Fatal(err)
	}
	if len(sink.rows) != 1 || sink.rows[0].Retries != 1 || sink.rows[0].ErrorCode != 0 || sink.rows[0].Rows != 1 {
		t.Fatalf("rows %+v", sink.rows)
	}
	if res.Summary.Scenarios[0].Retries != 1 || res.Summary.Errors != 0 {
		t.Errorf("summary %+v", res.Summary)
	}
}

// TestCommitConflictIsCountedApart: a COMMIT that a Galera cluster's
// certification refuses (1213) is a conflict, recorded on the event's last
// row and counted apart from errors, once per event; a deadlock retried
// on a statement is a retry.
func TestCommitConflictIsCountedApart(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const qa, qb = "SELECT a FROM t WHERE id = ?", "UPDATE t SET b = 1 WHERE id = ?"
	conflict := &mysql.MySQLError{Number: 1213, SQLState: [5]byte{'4', '0', '0', '0', '1'}, Message: "Deadlock found when trying to get lock"}
	for ev := 1; ev <= 3; ev++ {
		mock.ExpectExec("BEGIN").WillReturnResult(sqlmock.NewResult(0, 0))
		mock.ExpectQuery(qa).WithArgs(ev).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
		if ev == 3 {
			mock.ExpectExec(qb).WithArgs(ev).WillReturnError(conflict)
			mock.ExpectExec("ROLLBACK").WillReturnResult(sqlmock.NewResult(0, 0))
			mock.ExpectExec("BEGIN").WillReturnResult(sqlmock.NewResult(0, 0))
		}
		mock.ExpectExec(qb).WithArgs(ev).WillReturnResult(sqlmock.NewResult(0, 1))
		if ev == 3 {
			mock.ExpectExec("COMMIT").WillReturnResult(sqlmock.NewResult(0, 0))
		} else {
			mock.ExpectExec("COMMIT").WillReturnError(conflict)
		}
	}
	sink := &memSink{}
	var log strings.Builder
	cfg := baseConfig(db, sink, scenario("a", 1, qa), scenario("b", 1, qb))
	cfg.Events, cfg.Log = 3, &log
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Fatal(err)
	}
	if len(sink.rows) != 6 {
		t.Fatalf("%d rows", len(sink.rows))
	}
	for i, r := range sink.rows {
		want := int32(0)
		if i == 1 || i == 3 { // the last statement of the first two events
			want = 1213
		}
		if r.CommitErrorCode != want || r.ErrorCode != 0 {
			t.Errorf("row %d: commit error %d, error %d; want %d, 0", i, r.CommitErrorCode, r.ErrorCode, want)
		}
	}
	sum := res.Summary
	if sum.Conflicts != 2 || sum.FailedCommits != 2 || sum.Errors != 0 || sum.Retries != 1 {
		t.Errorf("summary: %d conflicts, %d failed commits, %d errors, %d retries; want 2, 2, 0, 1", sum.Conflicts, sum.FailedCommits, sum.Errors, sum.Retries)
	}
	if n := strings.Count(log.String(), "COMMIT"); n != 1 || !strings.Contains(log.String(), "conflict") {
		t.Errorf("the first conflict is said once, as a conflict:\n%s", log.String())
	}
	var text strings.Builder
	if err := sum.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "0 errors, 1 retries, 2 conflicts") {
		t.Errorf("summary text:\n%s", text.String())
	}
}

func TestRetriesAreBounded(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const q = "UPDATE t SET b = 1 WHERE id = ?"
	lockWait := &mysql.MySQLError{Number: 1205, SQLState: [5]byte{'H', 'Y', '0', '0', '0'}, Message: "Lock wait timeout"}
	for i := 0; i < 3; i++ {
		mock.ExpectExec(q).WithArgs(1).WillReturnError(lockWait)
	}
	sink := &memSink{}
	cfg := baseConfig(db, sink, scenario("u", 1, q))
	cfg.Events, cfg.SkipTrx, cfg.MaxRetries = 1, true, 2
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Fatal(err)
	}
	r := sink.rows[0]
	if r.Retries != 2 || r.ErrorCode != 1205 || r.SQLState != "HY000" || r.ErrorMessage != "Lock wait timeout" {
		t.Fatalf("row %+v", r)
	}
}

func TestScenarioFailingEveryTimeIsDisabled(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	mock.MatchExpectationsInOrder(false)
	const bad, good = "SELECT nope FROM t WHERE id = ?", "SELECT a FROM t WHERE id = ?"
	unknown := &mysql.MySQLError{Number: 1054, SQLState: [5]byte{'4', '2', 'S', '2', '2'}, Message: "Unknown column 'nope'"}
	for i := 1; i <= 3; i++ {
		mock.ExpectQuery(bad).WithArgs(i).WillReturnError(unknown)
	}
	for i := 1; i <= 6; i++ {
		mock.ExpectQuery(good).WithArgs(i).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
	}
	sink := &memSink{}
	var log strings.Builder
	cfg := baseConfig(db, sink, scenario("bad", 1, bad), scenario("good", 1, good))
	cfg.Events, cfg.SkipTrx, cfg.DisableAfter, cfg.Log = 6, true, 3, &log
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Fatal(err)
	}
	var badSum ScenarioSummary
	for _, s := range res.Summary.Scenarios {
		if s.Scenario == "bad" {
			badSum = s
		}
	}
	if badSum.Executions != 3 || badSum.Errors != 3 || !strings.Contains(badSum.Disabled, "42S22") {
		t.Errorf("bad scenario summary %+v", badSum)
	}
	if !strings.Contains(log.String(), "scenario bad: error 1054 (SQLSTATE 42S22)") {
		t.Errorf("log does not name the scenario and SQL state:\n%s", log.String())
	}
}

func TestEveryScenarioDisabledEndsTheRun(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const bad = "SELECT nope FROM t"
	unknown := &mysql.MySQLError{Number: 1054, SQLState: [5]byte{'4', '2', 'S', '2', '2'}, Message: "Unknown column"}
	for i := 0; i < 2; i++ {
		mock.ExpectQuery(bad).WillReturnError(unknown)
	}
	sink := &memSink{}
	cfg := baseConfig(db, sink, scenario("bad", 1, bad))
	cfg.SkipTrx, cfg.DisableAfter = true, 2
	cfg.Duration = time.Minute // would run a minute if the policy failed
	_, err := Run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Fatalf("err = %v", err)
	}
	if len(sink.rows) != 2 {
		t.Fatalf("%d rows", len(sink.rows))
	}
}

func TestConnectionLossIsRecordedAndTheWorkerReconnects(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const q = "SELECT a FROM t WHERE id = ?"
	mock.ExpectQuery(q).WithArgs(1).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
	mock.ExpectQuery(q).WithArgs(2).WillReturnError(mysql.ErrInvalidConn)
	expectConnect(mock, 8)
	mock.ExpectQuery(q).WithArgs(3).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
	sink := &memSink{}
	cfg := baseConfig(db, sink, scenario("a", 1, q))
	cfg.Events, cfg.SkipTrx = 3, true
	// sqlmock forgets its connection when the last one closes: hold one so
	// the worker can reopen.
	hold, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Fatal(err)
	}
	if len(sink.rows) != 3 || sink.rows[1].ErrorCode != -1 || sink.rows[2].ErrorCode != 0 {
		t.Fatalf("rows %+v", sink.rows)
	}
	if res.Summary.Reconnects != 1 || res.Summary.Errors != 1 || res.Summary.Events != 2 {
		t.Errorf("summary %+v", res.Summary)
	}
}

func TestCancelFlushesWhatWasRecorded(t *testing.T) {
	db, mock := newMock(t)
	expectConnect(mock, 7)
	const q = "SELECT a FROM t WHERE id = ?"
	mock.MatchExpectationsInOrder(false)
	for i := 1; i <= 5000; i++ {
		mock.ExpectQuery(q).WithArgs(i).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
	}
	sink := &memSink{}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := baseConfig(db, sink, scenario("a", 1, q))
	cfg.SkipTrx, cfg.Rate = true, 2000
	cfg.Duration = time.Minute
	time.AfterFunc(100*time.Millisecond, cancel)
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Summary.Interrupted || sink.closed != 1 {
		t.Fatalf("interrupted %v, closed %d", res.Summary.Interrupted, sink.closed)
	}
	// A statement in flight when the run was interrupted is a row too,
	// cut at the end and counted apart.
	if int64(len(sink.rows)) != res.Summary.Executions+res.Summary.CutAtEnd || len(sink.rows) == 0 {
		t.Fatalf("%d rows written, %d executions and %d cut at the end counted", len(sink.rows), res.Summary.Executions, res.Summary.CutAtEnd)
	}
	for i, r := range sink.rows {
		if r.IntendedStart == nil || r.IntendedStart.After(r.Start) || time.Duration(r.LatencyNs) < r.Start.Sub(*r.IntendedStart) {
			t.Fatalf("row %d of a paced run: %+v", i, r)
		}
	}
}

func TestConstantPacer(t *testing.T) {
	p := ConstantPacer{Rate: 4}
	for i, want := range []time.Duration{0, 250 * time.Millisecond, 500 * time.Millisecond, 2500 * time.Millisecond} {
		n := []int64{0, 1, 2, 10}[i]
		if got := p.Intended(n); got != want {
			t.Errorf("Intended(%d) = %v, want %v", n, got, want)
		}
	}
	if got := (ConstantPacer{Rate: 3}).Intended(3); got != time.Second {
		t.Errorf("Intended(3) at 3/s = %v", got)
	}
}

func TestClassify(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		err  error
		want errKind
	}{
		{nil, errNone},
		{&mysql.MySQLError{Number: 1213}, errRetry},
		{&mysql.MySQLError{Number: 1205}, errRetry},
		{&mysql.MySQLError{Number: 1317}, errTimeout},
		{&mysql.MySQLError{Number: 1054}, errServer},
		{&mysql.MySQLError{Number: 1927}, errConn},
		{mysql.ErrInvalidConn, errConn},
		{errors.New("driver: bad connection"), errConn},
		{context.Canceled, errCancelled},
	}
	for _, c := range cases {
		if got := classify(ctx, c.err, DefaultRetryErrors); got != c.want {
			t.Errorf("classify(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if got := classify(ctx, &mysql.MySQLError{Number: 1213}, []uint16{}); got != errServer {
		t.Errorf("1213 with no retry list = %v", got)
	}
}

func TestInterpolate(t *testing.T) {
	got := Interpolate("SELECT '?' , ? /* ? */ FROM t WHERE a = ? AND b IN (?, ?)", []any{"it's", 42, []byte{1, 255}, nil})
	want := `SELECT '?' , 'it\'s' /* ? */ FROM t WHERE a = 42 AND b IN (X'01ff', NULL)`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestReturnsRows(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT 1": true, " (SELECT 1)": true, "WITH x AS (SELECT 1) SELECT * FROM x": true,
		"/* c */ select 1": true, "/*+ JOIN_ORDER(a) */ SELECT 1": false, "UPDATE t SET a=1": false,
		"INSERT INTO t VALUES (1)": false, "DELETE FROM t": false,
	} {
		if got := returnsRows(q); got != want {
			t.Errorf("returnsRows(%q) = %v", q, got)
		}
	}
}

// fakeExplainer reports plan p1 for its first call and p2 after.
type fakeExplainer struct {
	mu     sync.Mutex
	calls  int
	failAt int // this call fails as a dead connection does
}

func (f *fakeExplainer) Explain(ctx context.Context, conn *sql.Conn, query string, args []any, analyze bool) (string, []PlanText, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.calls == f.failAt {
		return "", nil, mysql.ErrInvalidConn
	}
	h := "p1"
	if f.calls > 1 {
		h = "p2"
	}
	return h, []PlanText{{Format: "json", Text: `{"plan":"` + h + `"}`}}, nil
}

// explainedRun runs events point selects, one thread, with x explaining
// every `every` executions, and returns what was recorded and logged.
func explainedRun(t *testing.T, events int, x Explainer, every int64) (*memSink, *lockedBuilder) {
	t.Helper()
	db, mock := newMock(t)
	mock.MatchExpectationsInOrder(false)
	expectConnect(mock, 7)
	const q = "SELECT a FROM t WHERE id = ?"
	for i := 1; i <= events; i++ {
		mock.ExpectQuery(q).WithArgs(i).WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow(1))
	}
	sink := &memSink{}
	log := &lockedBuilder{}
	cfg := baseConfig(db, sink, scenario("a", 1, q))
	cfg.Events, cfg.SkipTrx, cfg.Log = int64(events), true, log
	cfg.Explain, cfg.Explainer, cfg.ExplainEvery = ExplainJSON, x, every
	hold, err := db.Conn(context.Background()) // see TestConnectionLoss...
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	return sink, log
}

func TestPlansAreCapturedStoredOnceAndChangesReported(t *testing.T) {
	sink, log := explainedRun(t, 10, &fakeExplainer{}, 3)
	if sink.rows[0].PlanHash != "p1" {
		t.Errorf("first row has plan %q, want the plan captured at start", sink.rows[0].PlanHash)
	}
	hashes := map[string]int{}
	for _, p := range sink.plans {
		hashes[p.PlanHash]++
		if p.Scenario != "a" || p.Endpoint != "db:3306" || p.Query != "SELECT a FROM t WHERE id = 1" && p.PlanHash == "p1" {
			t.Errorf("plan %+v", p)
		}
	}
	if hashes["p1"] != 1 || hashes["p2"] != 1 {
		t.Errorf("plans stored %v, want each distinct plan once", hashes)
	}
	if !strings.Contains(log.String(), "plan change: a (statement 1) on db:3306: p1 -> p2") {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestExplainRetriesOnADeadConnection: the explainer's connection died
// with the server (a restart); the request is tried again on a fresh
// connection and nothing is reported.
func TestExplainRetriesOnADeadConnection(t *testing.T) {
	x := &fakeExplainer{failAt: 2}     // the one in-run EXPLAIN, after the second execution
	_, log := explainedRun(t, 2, x, 2) // 2 events, explained every 2
	x.mu.Lock()
	calls := x.calls
	x.mu.Unlock()
	if calls < 3 {
		t.Errorf("%d EXPLAIN calls: the failed one was not tried again", calls)
	}
	if strings.Contains(log.String(), "EXPLAIN") {
		t.Errorf("a retried EXPLAIN was reported:\n%s", log.String())
	}
}

type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgressLineShowsRetriesAndConflicts: once a run has had retries or
// conflicts, every progress line gives their rate beside the errors'.
func TestProgressLineShowsRetriesAndConflicts(t *testing.T) {
	e := &engine{cfg: Config{Threads: 2}}
	quiet := e.progressLine(bucketTally{events: 10, execs: 20}, 2e6, time.Second, time.Second)
	if strings.Contains(quiet, "retry") || !strings.Contains(quiet, "qps: 20.0 err/s: 0.00 p95: 2.000ms") {
		t.Errorf("line without retries: %q", quiet)
	}
	busy := e.progressLine(bucketTally{events: 10, execs: 20, retries: 3, conflicts: 2}, 2e6, 2*time.Second, time.Second)
	if !strings.Contains(busy, "err/s: 0.00 retry/s: 3.00 conflict/s: 2.00 p95") {
		t.Errorf("line with retries and conflicts: %q", busy)
	}
	if after := e.progressLine(bucketTally{events: 10, execs: 20}, 2e6, 3*time.Second, time.Second); !strings.Contains(after, "retry/s: 0.00 conflict/s: 0.00") {
		t.Errorf("a line after them: %q", after)
	}
}
