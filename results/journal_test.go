package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func journalDir(t *testing.T, opts Options) *RunDir {
	t.Helper()
	opts.Journal = true
	d, err := CreateWithOptions(t.TempDir(), "r1", "client/1", opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writerWith is an executions writer of d that has written rows.
func writerWith(t *testing.T, d *RunDir, rows []Execution) *ExecutionWriter {
	t.Helper()
	w, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	return w
}

func sameRows(t *testing.T, got, want []Execution) {
	t.Helper()
	normalize(got)
	normalize(want)
	if len(got) != len(want) {
		t.Fatalf("read %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// TestJournalRoundTrip: rows written through a journal come out of the
// Parquet files made at Close exactly as written, in files of FileRows
// rows numbered as the live writer numbers them, and no journal is left.
func TestJournalRoundTrip(t *testing.T) {
	d := journalDir(t, Options{RowGroupRows: 1000, FileRows: 4000})
	w, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	var want []Execution
	for i := range 25 { // uneven batches crossing file bounds
		rows := sampleExecutions(len(want), 337+i)
		rows[0].CutAtEnd = true
		rows[1].Params = nil
		rows[2].Start = time.Unix(0, 0).UTC() // a start before the previous row's
		want = append(want, rows...)
		if err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if len(listFiles(t, d.Path(), "executions-*.parquet")) != 0 {
		t.Error("Parquet files before Close: a journal writes them at Close")
	}
	if got := w.PendingRows(); got != int64(len(want)) {
		t.Errorf("PendingRows = %d, want %d", got, len(want))
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	files := listFiles(t, d.Path(), "executions-*")
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if want := []string{"executions-client_1-0.parquet", "executions-client_1-1.parquet", "executions-client_1-2.parquet"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("files = %v, want %v", names, want)
	}
	if !reflect.DeepEqual(w.Files(), files) {
		t.Errorf("Files() = %v, want %v", w.Files(), files)
	}
	sameRows(t, readAll[Execution](t, files), want)
	if rows := readAll[Execution](t, files[:1]); len(rows) != 4000 {
		t.Errorf("first file holds %d rows, want FileRows = 4000", len(rows))
	}
}

// TestJournalRoll: Roll turns what was written so far into Parquet, and
// later rows go to a new journal and file.
func TestJournalRoll(t *testing.T) {
	d := journalDir(t, Options{})
	w := writerWith(t, d, sampleExecutions(0, 10))
	if err := w.Roll(); err != nil {
		t.Fatal(err)
	}
	if f := listFiles(t, d.Path(), "executions-*.parquet"); len(f) != 1 || len(readAll[Execution](t, f)) != 10 {
		t.Fatalf("after Roll: %v", f)
	}
	if err := w.Write(sampleExecutions(10, 5)); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(readAll[Execution](t, listFiles(t, d.Path(), "executions-*.parquet"))); n != 15 {
		t.Errorf("%d rows after Close, want 15", n)
	}
	if j := listFiles(t, d.Path(), JournalGlob); len(j) != 0 {
		t.Errorf("journals left: %v", j)
	}
}

// writeJournal writes frames of rows to a journal file of run folder d,
// as a client does, and leaves it there as a killed client would.
func writeJournal(t *testing.T, d *RunDir, name string, frames ...[]Execution) string {
	t.Helper()
	j, err := createJournal(d, filepath.Join(d.Path(), name), executionJournal)
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range frames {
		if err := j.write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.close(); err != nil {
		t.Fatal(err)
	}
	return j.path
}

// TestRecoverTornFrame: a journal whose last frame was cut short, or whose
// last frame is damaged, gives the rows of the whole frames before it and
// a warning naming the file.
func TestRecoverTornFrame(t *testing.T) {
	for _, damage := range []string{"cut", "flipped"} {
		t.Run(damage, func(t *testing.T) {
			d := journalDir(t, Options{})
			a, b, c := sampleExecutions(0, 100), sampleExecutions(100, 50), sampleExecutions(150, 70)
			path := writeJournal(t, d, "executions-h-0.rows", a, b, c)
			st, _ := os.Stat(path)
			switch damage {
			case "cut":
				if err := os.Truncate(path, st.Size()-3); err != nil {
					t.Fatal(err)
				}
			case "flipped":
				f, err := os.OpenFile(path, os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteAt([]byte{0xff}, st.Size()-10)
				f.Close()
			}
			var warnings []error
			rec, err := Recover(d.Path(), func(err error) { warnings = append(warnings, err) })
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Files) != 1 || filepath.Base(rec.Files[0]) != "executions-h-0.parquet" {
				t.Fatalf("Recover wrote %v", rec.Files)
			}
			sameRows(t, readAll[Execution](t, rec.Files), append(a, b...))
			if len(warnings) != 1 || !errors.Is(warnings[0], errTornFrame) || !strings.Contains(warnings[0].Error(), "executions-h-0.rows") {
				t.Errorf("warnings = %v", warnings)
			}
			if j := listFiles(t, d.Path(), JournalGlob); len(j) != 0 {
				t.Errorf("journals left: %v", j)
			}
		})
	}
}

// TestRecoverLeavesRunningClient: a journal still open in a writer (here
// in this process, through another file) is not converted; once the
// writer closes it is Parquet.
func TestRecoverLeavesRunningClient(t *testing.T) {
	d := journalDir(t, Options{})
	writerWith(t, d, sampleExecutions(0, 10))
	rec, err := Recover(d.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Files) != 0 || len(rec.InUse) != 1 {
		t.Fatalf("Recover on a running client's journal: %+v", rec)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(readAll[Execution](t, listFiles(t, d.Path(), "executions-*.parquet"))); n != 10 {
		t.Errorf("%d rows, want 10", n)
	}
}

// TestRecoverAfterConversionKilled: a journal next to its finished
// Parquet file (the conversion was killed before removing the journal)
// is removed and the file left as it is; an empty journal gives no file.
func TestRecoverAfterConversionKilled(t *testing.T) {
	d := journalDir(t, Options{})
	rows := sampleExecutions(0, 20)
	path := writeJournal(t, d, "executions-h-3.rows", rows)
	if _, err := convertJournal(d, executionJournal, path, nil); err != nil {
		t.Fatal(err)
	}
	writeJournal(t, d, "executions-h-3.rows", sampleExecutions(0, 5))
	writeJournal(t, d, "executions-h-4.rows")
	rec, err := Recover(d.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Files) != 1 {
		t.Errorf("Recover wrote %v", rec.Files)
	}
	if j := listFiles(t, d.Path(), JournalGlob); len(j) != 0 {
		t.Errorf("journals left: %v", j)
	}
	sameRows(t, readAll[Execution](t, listFiles(t, d.Path(), "executions-*.parquet")), rows)
}

// TestRecoverRefusesOtherFiles: a file named like a journal that is not
// one is an error naming it, and is left alone.
func TestRecoverRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "executions-h-0.rows")
	if err := os.WriteFile(path, []byte("id,latency\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Recover(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "executions-h-0.rows: not a joinbench rows journal") {
		t.Fatalf("Recover = %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the file was removed: %v", err)
	}
}

// TestJournalKilledClientRecovered: a client killed mid-run leaves its
// journal; Recover makes Parquet of every row it had written.
func TestJournalKilledClientRecovered(t *testing.T) {
	if dir := os.Getenv("JOINBENCH_JOURNAL_KILL_CHILD"); dir != "" {
		journalKillChild(dir)
		return
	}
	dir := t.TempDir()
	killChildWhenReady(t, "TestJournalKilledClientRecovered", "JOINBENCH_JOURNAL_KILL_CHILD", dir)
	run := filepath.Join(dir, "run=killed")
	rec, err := Recover(run, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.InUse) != 0 {
		t.Errorf("a killed client's journal counted in use: %v", rec.InUse)
	}
	rows := readAll[Execution](t, listFiles(t, run, "executions-*.parquet"))
	if len(rows) != 7500 {
		t.Errorf("recovered %d rows, want 7500", len(rows))
	}
	if rows[0].RunID != "killed" {
		t.Errorf("run id %q", rows[0].RunID)
	}
}

func journalKillChild(dir string) {
	d, err := CreateWithOptions(dir, "killed", "h", Options{FileRows: 5000, Journal: true})
	if err == nil {
		var w *ExecutionWriter
		if w, err = d.NewExecutionWriter(); err == nil {
			rows := sampleExecutions(0, 7500)
			for i := range rows {
				rows[i].RunID = "" // the run's, filled in by Write
			}
			err = w.Write(rows) // one full journal, one open
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(3)
	}
	fmt.Println("READY")
	time.Sleep(time.Minute)
	os.Exit(4)
}

// TestJournalFilesForParallelReads: with the default options a journal,
// and the executions file made of it, holds journalFileRows, so that a
// run of a few minutes already has files for every core to read.
func TestJournalFilesForParallelReads(t *testing.T) {
	d := journalDir(t, Options{})
	w, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	rows := sampleExecutions(0, 1024)
	for range journalFileRows/1024 + 1 {
		if err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	files := listFiles(t, d.Path(), "executions-*.parquet")
	if len(files) != 2 {
		t.Fatalf("files %v, want 2", files)
	}
	if n := len(readAll[Execution](t, files[:1])); n != journalFileRows {
		t.Errorf("first file holds %d rows, want %d", n, journalFileRows)
	}
	// a conversion hands rows over a few thousand at a time: its row
	// groups must still be whole
	want := Options{}.withDefaults().RowGroupRows
	for i, rg := range openParquet(t, files[0]).RowGroups() {
		if rg.NumRows() != want {
			t.Errorf("row group %d holds %d rows, want %d", i, rg.NumRows(), want)
		}
	}
}

// TestConversionWorkers: journals are converted one per core, and never
// more than maxConversions at once however many cores (memory).
func TestConversionWorkers(t *testing.T) {
	for _, c := range []struct{ journals, cores, want int }{
		{0, 2, 0},
		{1, 2, 1},
		{3, 2, 2},
		{1000, 2, 2},
		{3, 64, 3},
		{1000, 64, maxConversions},
	} {
		if got := conversionWorkers(c.journals, c.cores); got != c.want {
			t.Errorf("conversionWorkers(%d journals, %d cores) = %d, want %d", c.journals, c.cores, got, c.want)
		}
	}
}

// TestJournalCarriesEveryColumn: every field of Execution comes back from
// the journal as written. A column added to Execution must be added to
// the journal's codec too (journal.go): this test names it until then.
func TestJournalCarriesEveryColumn(t *testing.T) {
	checkCarriesEveryField(t, func(rows []Execution) ([]Execution, error) {
		p := executionJournal.newEncoder().appendRows(nil, rows)
		return executionJournal.newDecoder(executionLayout).decodeRows(p, len(rows), nil)
	})
}

// checkCarriesEveryField round-trips, for each field of T, a row whose
// only other field set is its time, and fails naming each field that
// does not come back.
func checkCarriesEveryField[T any](t *testing.T, roundTrip func([]T) ([]T, error)) {
	t.Helper()
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	typ := reflect.TypeFor[T]()
	timeField := -1
	for i := range typ.NumField() {
		if typ.Field(i).Type == reflect.TypeFor[time.Time]() {
			timeField = i
			break
		}
	}
	for i := range typ.NumField() {
		f := typ.Field(i)
		var row T
		v := reflect.ValueOf(&row).Elem()
		if timeField >= 0 {
			v.Field(timeField).Set(reflect.ValueOf(base))
		}
		marker, ok := markerValue(f.Type, base.Add(1234567*time.Microsecond))
		if !ok {
			t.Errorf("%s.%s: no test value for %s", typ.Name(), f.Name, f.Type)
			continue
		}
		v.Field(i).Set(marker)
		got, err := roundTrip([]T{row})
		if err != nil || len(got) != 1 {
			t.Errorf("%s.%s: round trip: %d rows, %v", typ.Name(), f.Name, len(got), err)
			continue
		}
		if g := reflect.ValueOf(got[0]).Field(i).Interface(); !reflect.DeepEqual(utc(g), utc(marker.Interface())) {
			t.Errorf("%s.%s (column %s) comes back from the journal as %v, want %v: the journal does not carry it",
				typ.Name(), f.Name, strings.Split(f.Tag.Get("parquet"), ",")[0], g, marker.Interface())
		}
	}
}

// markerValue is a value of type typ that is not its zero value.
func markerValue(typ reflect.Type, at time.Time) (reflect.Value, bool) {
	v := reflect.New(typ).Elem()
	switch {
	case typ == reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(at))
	case typ == reflect.TypeFor[*time.Time]():
		v.Set(reflect.ValueOf(&at))
	case typ == reflect.TypeFor[[]string]():
		v.Set(reflect.ValueOf([]string{"a", "", "c"}))
	case typ.Kind() == reflect.String:
		v.SetString("marker")
	case typ.Kind() == reflect.Int32 || typ.Kind() == reflect.Int64:
		v.SetInt(-1234567)
	case typ.Kind() == reflect.Float64:
		v.SetFloat(1.25)
	case typ.Kind() == reflect.Bool:
		v.SetBool(true)
	default:
		return v, false
	}
	return v, true
}

// utc is v with its times in UTC, as the journal gives them back.
func utc(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC()
	case *time.Time:
		if x != nil {
			u := x.UTC()
			return &u
		}
	}
	return v
}
