package status

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

func byName(rows []results.Status) map[string]results.Status {
	m := map[string]results.Status{}
	for _, r := range rows {
		m[r.Variable] = r
	}
	return m
}

func TestDeltasMock(t *testing.T) {
	db, mock, err := sqlmock.New()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cols := []string{"Variable_name", "Value"}
	mock.ExpectQuery("SHOW GLOBAL STATUS WHERE Variable_name IN").WillReturnRows(sqlmock.NewRows(cols).
		AddRow("Handler_read_key", "100").AddRow("Questions", "10").AddRow("wsrep_flow_control_paused_ns", "5000"))
	mock.ExpectQuery("SHOW GLOBAL STATUS").WillReturnRows(sqlmock.NewRows(cols).
		AddRow("HANDLER_READ_KEY", "175").AddRow("Questions", "3").AddRow("wsrep_flow_control_paused_ns", "9000").
		AddRow("Select_scan", "7"))
	mock.ExpectQuery("SHOW GLOBAL STATUS").WillReturnRows(sqlmock.NewRows(cols).
		AddRow("Handler_read_key", "175").AddRow("Questions", "5").AddRow("wsrep_flow_control_paused_ns", "not-a-number").
		AddRow("Select_scan", "9"))

	s := NewSampler(db, "db1:3306", "r1", true)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	if rows, err := s.Sample(ctx, t0); err != nil || rows != nil {
		t.Fatalf("first sample: %v %v", rows, err)
	}
	rows, err := s.Sample(ctx, t0.Add(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	m := byName(rows)
	if len(rows) != 3 {
		t.Errorf("rows %+v, want 3 (Select_scan has no baseline yet)", rows)
	}
	if r := m["Handler_read_key"]; r.Delta != 75 || r.Interval != 2 || r.RunID != "r1" || r.Endpoint != "db1:3306" || !r.Time.Equal(t0.Add(2*time.Second)) {
		t.Errorf("Handler_read_key row %+v", r)
	}
	if r := m["Questions"]; r.Delta != 3 {
		t.Errorf("counter reset: delta %d, want 3", r.Delta)
	}
	if r := m["wsrep_flow_control_paused_ns"]; r.Delta != 4000 {
		t.Errorf("galera delta %d", r.Delta)
	}
	rows, err = s.Sample(ctx, t0.Add(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	m = byName(rows)
	if _, ok := m["wsrep_flow_control_paused_ns"]; ok {
		t.Error("non-numeric value reported")
	}
	if m["Select_scan"].Delta != 2 || m["Handler_read_key"].Delta != 0 || m["Questions"].Interval != 1 {
		t.Errorf("third sample %+v", rows)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Error(err)
	}
	if n := len(NewSampler(db, "e", "r", false).Names()); n != len(Counters) {
		t.Errorf("non-galera sampler has %d counters", n)
	}
}

func TestDeltasAgainstServer(t *testing.T) {
	db := testdb.Open(t, "replay_status")
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO t VALUES (1,1),(2,2),(3,3),(4,4),(5,5)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s := NewSampler(db, "test", "r1", false)
	if _, err := s.Sample(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	const scans = 20
	for i := 0; i < scans; i++ {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM t WHERE v > 0").Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := s.Sample(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	m := byName(rows)
	// counters are server-wide, so other sessions can only add to them
	if d := m["Questions"].Delta; d < scans {
		t.Errorf("Questions delta %d, want >= %d", d, scans)
	}
	if d := m["Select_scan"].Delta; d < scans {
		t.Errorf("Select_scan delta %d, want >= %d", d, scans)
	}
	if d := m["Handler_read_rnd_next"].Delta + m["Handler_read_next"].Delta + m["Handler_read_first"].Delta; d < scans {
		t.Errorf("row reads delta %d, want >= %d", d, scans)
	}
	for _, r := range rows {
		if r.Delta < 0 || r.Interval <= 0 || r.Endpoint != "test" {
			t.Errorf("bad row %+v", r)
		}
	}
	if len(rows) < len(Counters)-2 {
		t.Errorf("only %d of %d counters found: %+v", len(rows), len(Counters), rows)
	}
}

// TestSampleErrorSaysItOnce: the engine prefixes a sampling error with the
// endpoint ("status of db1: ..."), so the sampler's own error must not.
func TestSampleErrorSaysItOnce(t *testing.T) {
	db, mock, err := sqlmock.New()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mock.ExpectQuery("SHOW GLOBAL STATUS").WillReturnError(errors.New("connection refused"))
	_, err = NewSampler(db, "db1:3306", "r1", false).Sample(context.Background(), time.Now())
	if err == nil {
		t.Fatal("no error from a failing server")
	}
	if strings.Contains(err.Error(), "db1:3306") || strings.Contains(err.Error(), "status of") {
		t.Errorf("error %q repeats what the caller says (status of <endpoint>)", err)
	}
}

// Galera's queues are levels: each row holds the value at the end of the
// interval, marked as a gauge, whatever the previous value.
func TestGaugesMock(t *testing.T) {
	db, mock, err := sqlmock.New()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cols := []string{"Variable_name", "Value"}
	mock.ExpectQuery("SHOW GLOBAL STATUS").WillReturnRows(sqlmock.NewRows(cols).
		AddRow("wsrep_local_recv_queue", "40").AddRow("wsrep_local_bf_aborts", "2"))
	mock.ExpectQuery("SHOW GLOBAL STATUS").WillReturnRows(sqlmock.NewRows(cols).
		AddRow("wsrep_local_recv_queue", "7").AddRow("wsrep_local_bf_aborts", "5"))
	s := NewSampler(db, "n1", "r", true)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.Sample(context.Background(), t0); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Sample(context.Background(), t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	m := byName(rows)
	if r := m["wsrep_local_recv_queue"]; r.Delta != 7 || !r.Gauge {
		t.Errorf("receive queue %+v, want the gauge's value 7", r)
	}
	if r := m["wsrep_local_bf_aborts"]; r.Delta != 3 || r.Gauge {
		t.Errorf("brute-force aborts %+v, want the counter's delta 3", r)
	}
}

// A Galera node's states are sampled as text with their number, the
// cluster's size as a gauge; a node that does not answer has every state
// unreachable.
func TestGaleraStatesMock(t *testing.T) {
	db, mock, err := sqlmock.New()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cols := []string{"Variable_name", "Value"}
	state := func(comment, local, status, ready, size string) *sqlmock.Rows {
		return sqlmock.NewRows(cols).AddRow("wsrep_local_state_comment", comment).AddRow("wsrep_local_state", local).
			AddRow("wsrep_cluster_status", status).AddRow("wsrep_ready", ready).AddRow("wsrep_connected", "ON").
			AddRow("wsrep_cluster_size", size)
	}
	mock.ExpectQuery("SHOW GLOBAL STATUS").WillReturnRows(state("Synced", "4", "Primary", "ON", "3"))
	mock.ExpectQuery("SHOW GLOBAL STATUS").WillReturnRows(state("Joining", "1", "non-Primary", "OFF", "1"))
	s := NewSampler(db, "n1", "r", true)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.Sample(context.Background(), t0); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Sample(context.Background(), t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	m := byName(rows)
	for name, want := range map[string]results.Status{
		"wsrep_local_state_comment": {Value: "Joining", Delta: 1},
		"wsrep_cluster_status":      {Value: "non-Primary", Delta: 0},
		"wsrep_ready":               {Value: "OFF", Delta: 0},
		"wsrep_connected":           {Value: "ON", Delta: 1},
		"wsrep_cluster_size":        {Delta: 1},
	} {
		if r := m[name]; r.Value != want.Value || r.Delta != want.Delta || !r.Gauge || r.Interval != 1 {
			t.Errorf("%s: %+v, want value %q, delta %d, a gauge", name, r, want.Value, want.Delta)
		}
	}
	if _, ok := m["wsrep_local_state"]; ok {
		t.Error("wsrep_local_state has a row of its own: it is the number of the comment's")
	}
	down := byName(s.Unreachable(t0.Add(3 * time.Second)))
	if len(down) != len(GaleraStates) {
		t.Fatalf("unreachable rows %+v", down)
	}
	if r := down["wsrep_local_state_comment"]; r.Value != Unreachable || r.Delta != 0 || r.Interval != 2 || !r.Gauge {
		t.Errorf("unreachable node's state %+v", r)
	}
	if rows := NewSampler(db, "n", "r", false).Unreachable(t0); len(rows) != 0 {
		t.Errorf("a server without states: %+v", rows)
	}
}
