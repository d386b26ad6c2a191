package results

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// fullWork is a work row with every field set, the nulls of one table
// kept.
func fullWork(i int) Work {
	f := 33.5
	n := func(v int64) *int64 { return counter(v + int64(i)) }
	return Work{
		RunID: "r", Scenario: "simple_inner_index", Endpoint: "127.0.0.1:3306", ClientHost: "h", Segment: 0,
		Thread: 1, Event: int64(i), StatementSeq: 2, PlanHash: "abc", Params: []string{"main1", "active", ""},
		Time: time.Date(2026, 11, 30, 12, 0, 0, 123456789, time.UTC), Warmup: true, Retries: 3, Error: "e",
		Source: SourceMariaDBAnalyze, RowsExamined: n(10401), RowsSent: n(100), RowsChanged: n(0), Pages: n(13341),
		HandlerReadKey: n(1), HandlerReadNext: n(2), HandlerReadPrev: n(3), HandlerReadFirst: n(4), HandlerReadLast: n(5),
		HandlerReadRnd: n(6), HandlerReadRndNext: n(7), HandlerWrite: n(8), HandlerUpdate: n(9), HandlerDelete: n(10),
		TmpTables: n(11), TmpDiskTables: n(12), TmpRowsRead: n(13), SortRows: n(14), SortMergePasses: n(15),
		FullScans: n(16), FullJoins: n(17),
		Tables: []WorkTable{
			{SelectID: 1, Name: "m", Access: "ref", Key: "comp_attributes", Loops: 1, Rows: 2857, Filtered: &f, Pages: n(100)},
			{SelectID: 1, Name: "level1", Access: "ALL", Loops: 2857, Rows: 20000, JoinBuffer: "BNL", Compared: n(57140000)},
		},
	}
}

// Every field of a work row comes back from the journal, and from the
// Parquet file it becomes, as written: nulls as nulls.
func TestWorkJournalAndFileCarryEveryField(t *testing.T) {
	rows := []Work{fullWork(0), {RunID: "r", Scenario: "s", Source: SourceSessionStatus, Time: time.Unix(5, 0).UTC()}}
	p := workJournal.newEncoder().appendRows(nil, rows)
	got, err := workJournal.newDecoder(1).decodeRows(p, len(rows), nil)
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("journal: %v\n got %+v\nwant %+v", err, got, rows)
	}

	d, err := Create(t.TempDir(), "r", "h")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Work().Write(append([]Work(nil), rows...)); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(d.Path(), WorkJournalGlob)); len(m) != 0 {
		t.Errorf("journals left after Close: %v", m)
	}
	read, err := ReadWork(d.Path(), func(err error) { t.Errorf("warning: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != 2 {
		t.Fatalf("%d rows read", len(read))
	}
	rows[1].ClientHost = "h" // the writer's, when a row has none
	if !reflect.DeepEqual(read, rows) {
		t.Errorf("work file:\n got %+v\nwant %+v", read, rows)
	}
}

// Clone shares no memory with the row it copies: a reader reuses rows.
func TestWorkCloneSharesNothing(t *testing.T) {
	w := fullWork(0)
	c := w.Clone()
	v, cv := reflect.ValueOf(&w).Elem(), reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Pointer && !f.IsNil() && f.Pointer() == cv.Field(i).Pointer() {
			t.Errorf("%s shared", v.Type().Field(i).Name)
		}
	}
	if &c.Tables[0] == &w.Tables[0] || c.Tables[0].Pages == w.Tables[0].Pages || c.Tables[0].Filtered == w.Tables[0].Filtered ||
		&c.Params[0] == &w.Params[0] {
		t.Error("lists shared")
	}
	if !reflect.DeepEqual(c, w) {
		t.Error("clone differs")
	}
}

// A client killed during its run leaves its work journal; Recover makes it
// the work file, every sample written kept.
func TestWorkKilledClientRecovered(t *testing.T) {
	if dir := os.Getenv("JOINBENCH_WORK_KILL_CHILD"); dir != "" {
		workKillChild(dir)
		return
	}
	dir := t.TempDir()
	killChildWhenReady(t, "TestWorkKilledClientRecovered", "JOINBENCH_WORK_KILL_CHILD", dir)
	run := filepath.Join(dir, "run=killed")
	rec, err := Recover(run, func(err error) { t.Errorf("warning: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ReadWork(run, func(err error) { t.Errorf("unreadable: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 25 {
		t.Fatalf("%d samples readable after the kill, want at least the 25 written before it", len(rows))
	}
	for i, r := range rows {
		if r.Event != int64(i) {
			t.Fatalf("sample %d is sample %d: samples lost", i, r.Event)
		}
	}
	if len(rec.WorkFiles) != 1 || rec.WorkRows != int64(len(rows)) {
		t.Errorf("Recover: %+v, want one work file of %d rows", rec, len(rows))
	}
}

func workKillChild(dir string) {
	d, err := CreateWithOptions(dir, "killed", "h", Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(3)
	}
	for i := 0; ; i++ {
		if err := d.Work().Write([]Work{fullWork(i)}); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(3)
		}
		if i == 24 {
			fmt.Println("READY")
		}
		time.Sleep(time.Millisecond)
	}
}

// A work file with a figure outside its domain (negative, past 2^50, as a
// forged or damaged file has) is rejected whole, with a warning naming the
// figure; a file of sound rows beside it is read.
func TestWorkOutsideItsDomainRejected(t *testing.T) {
	for name, spoil := range map[string]func(*Work){
		"negative rows examined": func(w *Work) { w.RowsExamined = counterOf(-2654280) },
		"overflowing pages":      func(w *Work) { w.Pages = counterOf(1<<63 - 1) },
		"negative table rows":    func(w *Work) { w.Tables[1].Rows = -1 },
		"filtered past 100%":     func(w *Work) { f := 250.0; w.Tables[0].Filtered = &f },
	} {
		t.Run(name, func(t *testing.T) {
			d, err := Create(t.TempDir(), "r", "h")
			if err != nil {
				t.Fatal(err)
			}
			bad := fullWork(1)
			spoil(&bad)
			if err := d.Work().Write([]Work{fullWork(0), bad}); err != nil {
				t.Fatal(err)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			var warnings []error
			read, err := ReadWork(d.Path(), func(err error) { warnings = append(warnings, err) })
			if err != nil {
				t.Fatal(err)
			}
			if len(read) != 0 || len(warnings) != 1 {
				t.Fatalf("%d rows read, warnings %v: want the file rejected with one warning", len(read), warnings)
			}
			t.Log(warnings[0])
		})
	}
}

// counterOf is a work counter of n.
func counterOf(n int64) *int64 { return &n }
