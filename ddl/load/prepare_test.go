package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

func checksums(t *testing.T, db *sql.DB, names []string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, n := range names {
		var name string
		var sum sql.NullInt64
		if err := db.QueryRow("CHECKSUM TABLE "+sqllex.QuoteIdent(n)).Scan(&name, &sum); err != nil {
			t.Fatalf("checksum %s: %v", n, err)
		}
		if !sum.Valid {
			t.Fatalf("table %s missing", n)
		}
		out[n] = sum.Int64
	}
	return out
}

func count(t *testing.T, db *sql.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow("SELECT COUNT(*) FROM " + sqllex.QuoteIdent(table)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

const testSize = 1500

func baseOpts() PrepareOptions {
	return PrepareOptions{
		Schema: ddl.SchemaOptions{Tables: 2},
		Gen:    ddl.GenOptions{Seed: 99, TableSize: testSize},
	}
}

func TestPrepareSameSeedSameRows(t *testing.T) {
	ctx := context.Background()
	ref := openDSN(t, testdb.Fresh(t, "ddl_prep_ref"))
	o := baseOpts()
	o.Threads, o.ChunkSize = 1, 1000
	res, err := Prepare(ctx, ref, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 7*testSize || res.Method != MethodLoadData {
		t.Fatalf("loaded %d rows with %s", res.Rows, res.Method)
	}
	names := o.Schema.TableNames()
	want := checksums(t, ref, names)
	for _, n := range names {
		if c := count(t, ref, n); c != testSize {
			t.Errorf("%s has %d rows", n, c)
		}
	}

	variants := []struct {
		name string
		mod  func(*PrepareOptions)
	}{
		{"threads4_chunk97_split_ranges", func(o *PrepareOptions) { o.Threads, o.ChunkSize = 4, 97 }},
		{"indexes_during_load", func(o *PrepareOptions) { o.Threads, o.ChunkSize, o.IndexesDuringLoad = 2, 500, true }},
		{"insert", func(o *PrepareOptions) { o.Threads, o.ChunkSize, o.Method = 2, 700, MethodInsert }},
		{"client_ids", func(o *PrepareOptions) { o.Schema.ClientIDs = true; o.Threads = 2 }},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			db := openDSN(t, testdb.Fresh(t, "ddl_prep_"+v.name))
			o := baseOpts()
			v.mod(&o)
			if _, err := Prepare(ctx, db, o); err != nil {
				t.Fatal(err)
			}
			got := checksums(t, db, names)
			for _, n := range names {
				if got[n] != want[n] {
					t.Errorf("%s: checksum %d, want %d", n, got[n], want[n])
				}
			}
			// Deferred (the default) or not, every table ends with all
			// its indexes.
			s, err := SchemaFromServer(ctx, db, dbName(t, db))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(s.Table("main2").Indexes); n != 14 {
				t.Errorf("main2 has %d indexes, want 14", n)
			}
			if n := len(s.Table("level5").Indexes); n != 12 {
				t.Errorf("level5 has %d indexes, want 12", n)
			}
		})
	}

	// Loading again without --recreate is refused; with it the rows are the same.
	_, err = Prepare(ctx, ref, o)
	if !usage.Is(err) || !strings.Contains(err.Error(), "already exists") || !strings.Contains(err.Error(), "--recreate") {
		t.Fatalf("second prepare: %v, want a usage error suggesting --recreate", err)
	}
	o.Recreate = true
	if _, err := Prepare(ctx, ref, o); err != nil {
		t.Fatal(err)
	}
	if got := checksums(t, ref, names); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("recreated checksums %v, want %v", got, want)
	}
}

// cancelAfter cancels a load once n rows are committed.
type cancelAfter struct {
	mu     sync.Mutex
	n      int64
	cancel func()
}

func (c *cancelAfter) Start(string, int64, int64) {}
func (c *cancelAfter) Done(string)                {}
func (c *cancelAfter) Finish()                    {}
func (c *cancelAfter) Add(_ string, rows int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n -= rows
	if c.n <= 0 {
		c.cancel()
	}
}

func TestPrepareInterruptAndResume(t *testing.T) {
	ref := openDSN(t, testdb.Fresh(t, "ddl_resume_ref"))
	o := baseOpts()
	o.Threads, o.ChunkSize = 2, 200
	if _, err := Prepare(context.Background(), ref, o); err != nil {
		t.Fatal(err)
	}
	names := o.Schema.TableNames()
	want := checksums(t, ref, names)

	db := openDSN(t, testdb.Fresh(t, "ddl_resume"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.Progress = &cancelAfter{n: 2*testSize + 400, cancel: cancel}
	_, err := Prepare(ctx, db, o)
	var ie *InterruptedError
	if !errors.As(err, &ie) || !usage.Is(err) {
		t.Fatalf("interrupted prepare: %v, want an InterruptedError", err)
	}
	if ie.Table == "main1" || ie.Row < 1 {
		t.Fatalf("resume point %s row %d: main1 was complete", ie.Table, ie.Row)
	}
	t.Logf("resume at %s row %d", ie.Table, ie.Row)

	o.Progress = nil
	o.FromTable, o.FromRow = ie.Table, ie.Row
	if _, err := Prepare(context.Background(), db, o); err != nil {
		t.Fatal(err)
	}
	got := checksums(t, db, names)
	for _, n := range names {
		if got[n] != want[n] {
			t.Errorf("%s after resume: checksum %d, want %d", n, got[n], want[n])
		}
		if c := count(t, db, n); c != testSize {
			t.Errorf("%s after resume: %d rows", n, c)
		}
	}
	// The interrupted tables were created without their secondary
	// indexes; the resumed load adds them.
	s, err := SchemaFromServer(context.Background(), db, dbName(t, db))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		want := 12
		if strings.HasPrefix(n, "main") {
			want = 14
		}
		if got := len(s.Table(n).Indexes); got != want {
			t.Errorf("%s after resume has %d indexes, want %d", n, got, want)
		}
	}
}

// cancelAtDone cancels a load when a table's rows are all in, as its
// secondary indexes are about to be built.
type cancelAtDone struct {
	once   sync.Once
	cancel func()
}

func (c *cancelAtDone) Start(string, int64, int64) {}
func (c *cancelAtDone) Add(string, int64)          {}
func (c *cancelAtDone) Finish()                    {}
func (c *cancelAtDone) Done(string)                { c.once.Do(c.cancel) }

// Interrupted while indexing, a table keeps its rows without the secondary
// indexes; the resumed load adds them.
func TestPrepareInterruptWhileIndexing(t *testing.T) {
	db := openDSN(t, testdb.Fresh(t, "ddl_resume_idx"))
	o := baseOpts()
	o.Threads, o.ChunkSize = 1, 500
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.Progress = &cancelAtDone{cancel: cancel}
	_, err := Prepare(ctx, db, o)
	var ie *InterruptedError
	if !errors.As(err, &ie) || !usage.Is(err) || ie.Table != "main2" || ie.Row != 1 {
		t.Fatalf("interrupted prepare: %v, want an InterruptedError at main2 row 1", err)
	}
	if c := count(t, db, "main1"); c != testSize {
		t.Fatalf("main1 has %d rows", c)
	}
	if missing, err := lacksIndexes(context.Background(), db, "main1"); err != nil || !missing {
		t.Fatalf("main1 lacks indexes: %v, %v; want true", missing, err)
	}
	o.Progress = nil
	o.FromTable, o.FromRow = ie.Table, ie.Row
	if _, err := Prepare(context.Background(), db, o); err != nil {
		t.Fatal(err)
	}
	s, err := SchemaFromServer(context.Background(), db, dbName(t, db))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Table("main1").Indexes); n != 14 {
		t.Errorf("main1 has %d indexes after the resumed load, want 14", n)
	}
}

// An engine that cannot hold the indexes fails before any row is loaded,
// although the indexes are only built after the rows.
func TestPrepareEngineWithoutRoomForTheIndexes(t *testing.T) {
	db := openDSN(t, testdb.Fresh(t, "ddl_prep_myisam"))
	o := baseOpts()
	o.Schema.Engine = "MyISAM" // 1000-byte keys: comp_color does not fit
	_, err := Prepare(context.Background(), db, o)
	if !usage.Is(err) || !strings.Contains(err.Error(), "--engine MyISAM") {
		t.Fatalf("err = %v, want a usage error naming --engine", err)
	}
	if tabs, err := ExistingTables(context.Background(), db, o.Schema.TableNames()); err != nil || len(tabs) != 0 {
		t.Errorf("tables %v (%v) after a failed create, want none", tabs, err)
	}
}

func TestPrepareBadOptions(t *testing.T) {
	for _, o := range []PrepareOptions{
		{Gen: ddl.GenOptions{TableSize: 0}},
		{Gen: ddl.GenOptions{TableSize: 10}, Threads: -1},
		{Gen: ddl.GenOptions{TableSize: 10}, ChunkSize: -5},
		{Gen: ddl.GenOptions{TableSize: 10}, FromTable: "nope"},
		{Gen: ddl.GenOptions{TableSize: 10}, FromRow: 3},
		{Gen: ddl.GenOptions{TableSize: 10}, FromTable: "main1", FromRow: 12},
		{Gen: ddl.GenOptions{TableSize: 10}, Schema: ddl.SchemaOptions{TableName: "bad name"}},
	} {
		if _, err := Prepare(context.Background(), nil, o); !usage.Is(err) {
			t.Errorf("%+v: err = %v, want a usage error", o, err)
		}
	}
}

func dbName(t *testing.T, db *sql.DB) string {
	t.Helper()
	var n string
	if err := db.QueryRow("SELECT DATABASE()").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Resumed after its last row (interrupted while the last table was being
// indexed), a load has no row to load: it only adds the indexes that the
// kept tables and the resumed one lack, and the rows stay as they were.
func TestPrepareResumeAfterTheLastRow(t *testing.T) {
	ctx := context.Background()
	db := openDSN(t, testdb.Fresh(t, "ddl_resume_last"))
	o := baseOpts()
	o.Threads, o.NoAnalyze = 2, true
	if _, err := Prepare(ctx, db, o); err != nil {
		t.Fatal(err)
	}
	names := o.Schema.TableNames()
	want := checksums(t, db, names)
	for _, n := range []string{"main2", "level5"} {
		tabs, err := ddl.BuiltinTables(o.Schema)
		if err != nil {
			t.Fatal(err)
		}
		for _, bt := range tabs {
			if bt.Name != n {
				continue
			}
			drop, err := dropSecondaryIndexes(bt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(drop); err != nil {
				t.Fatal(err)
			}
		}
	}
	o.FromTable, o.FromRow = "level5", testSize+1
	res, err := Prepare(ctx, db, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 0 || len(res.Tables) != 1 || res.Tables[0].Name != "level5" || res.Tables[0].Indexing <= 0 {
		t.Errorf("resumed load did %+v, want level5 indexed and no row loaded", res.Tables)
	}
	if got := checksums(t, db, names); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checksums %v after the resumed load, want %v", got, want)
	}
	s, err := SchemaFromServer(ctx, db, dbName(t, db))
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[string]int{"main2": 14, "level5": 12} {
		if got := len(s.Table(n).Indexes); got != want {
			t.Errorf("%s has %d indexes after the resumed load, want %d", n, got, want)
		}
	}
}
