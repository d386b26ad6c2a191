package results

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// testdata/format-1 holds files written by the build before the schema
// was derived from the row types (schema.go), as writeFormatRun writes
// them: executions, status, plans and actions files; and an executions
// journal of formatRows in three frames (executions-h-1.rows, of 100, 80
// and 70 rows) as a killed client of that build leaves it.
const formatDir = "testdata/format-1"

func formatRows() []Execution {
	rows := sampleExecutions(0, 250)
	rows[7].CutAtEnd = true
	rows[8].Params = nil
	rows[9].Start = time.Unix(0, 0).UTC()
	return rows
}

func formatStatus() []Status {
	var out []Status
	for i := range 20 {
		out = append(out, Status{RunID: "golden", Endpoint: "127.0.0.1:3306", Time: time.Date(2026, 11, 30, 12, 0, i, 0, time.UTC), Interval: 1,
			Variable: []string{"Questions", "wsrep_local_recv_queue"}[i%2], Delta: int64(i * 10), Gauge: i%2 == 1})
	}
	return out
}

func formatPlan() Plan {
	return Plan{RunID: "golden", Scenario: "s1", Endpoint: "127.0.0.1:3306", PlanHash: "abc", Format: "json", Explain: "{}",
		Query: "SELECT 1", FirstSeen: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
}

func formatAction() Action {
	at := time.Date(2026, 11, 30, 12, 0, 10, 0, time.UTC)
	return Action{RunID: "golden", Action: 1, Step: 1, Spec: "10s:sql:SELECT 1", Kind: "sql", Endpoint: "127.0.0.1:3306",
		What: "SELECT 1", Planned: at, Start: at, End: at.Add(time.Millisecond), Outcome: "ok"}
}

// writeFormatRun writes formatRows and the others with this build, as
// testdata/format-1 was written.
func writeFormatRun(t *testing.T) *RunDir {
	t.Helper()
	d, err := CreateWithOptions(t.TempDir(), "golden", "h", Options{FileAge: time.Hour, RowGroupRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	w, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(formatRows()); err != nil {
		t.Fatal(err)
	}
	if err := d.Status().Write(formatStatus()); err != nil {
		t.Fatal(err)
	}
	if err := d.Plans().Write(formatPlan()); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteActions([]Action{formatAction()}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestReadsFilesOfEarlierBuilds: the files of testdata/format-1 read as
// the rows they were written from.
func TestReadsFilesOfEarlierBuilds(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"executions-h-0.parquet", "executions-h-1.rows", "status-h-0.parquet", "plans.parquet", "actions.parquet"} {
		b, err := os.ReadFile(filepath.Join(formatDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fail := func(err error) { t.Errorf("warning: %v", err) }
	rec, err := Recover(dir, fail)
	if err != nil || len(rec.Files) != 1 {
		t.Fatalf("Recover of the journal: %+v, %v", rec, err)
	}
	var rows []Execution
	files, err := ScanExecutions(dir, fail, func(e *Execution) error {
		rows = append(rows, *e)
		rows[len(rows)-1].Params = append([]string(nil), e.Params...)
		return nil
	})
	if err != nil || files != 2 {
		t.Fatalf("%d files, %v", files, err)
	}
	sameRows(t, rows, append(formatRows(), formatRows()...))

	var status []Status
	if err := ScanStatus(dir, fail, func(s *Status) error { status = append(status, *s); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(status, formatStatus()) {
		t.Errorf("status rows:\n got %+v\nwant %+v", status, formatStatus())
	}
	plans, err := ReadPlans(dir, fail)
	if err != nil || len(plans) != 1 || !reflect.DeepEqual(plans[0], formatPlan()) {
		t.Errorf("plans %+v, %v", plans, err)
	}
	actions, err := ReadActions(dir, fail)
	if err != nil || len(actions) != 1 || !reflect.DeepEqual(actions[0], formatAction()) {
		t.Errorf("actions %+v, %v", actions, err)
	}
}

// addedSinceFormat1 are the columns added to each file after
// testdata/format-1 was written: optional, at the end, so that files of
// either build read with the other's schema.
var addedSinceFormat1 = map[string][]string{
	"executions-h-0.parquet": {"commit_error_code", "node", "warnings"},
	"status-h-0.parquet":     {"value"},
	"actions.parquet":        {"writable_time", "synced_time", "state_transfer"},
}

// TestWritesTheFormatOfEarlierBuilds: the Parquet files written now have
// the schema of testdata/format-1's, and statistics on the same columns,
// but for the optional columns added at their end since.
func TestWritesTheFormatOfEarlierBuilds(t *testing.T) {
	d := writeFormatRun(t)
	for _, name := range []string{"executions-h-0.parquet", "status-h-0.parquet", "plans.parquet", "actions.parquet"} {
		old, now := openParquet(t, filepath.Join(formatDir, name)), openParquet(t, filepath.Join(d.Path(), name))
		added := addedSinceFormat1[name]
		fields := now.Schema().Fields()
		if len(fields) < len(added) {
			t.Fatalf("%s: %d columns", name, len(fields))
		}
		for i, f := range fields[len(fields)-len(added):] {
			if f.Name() != added[i] || !f.Optional() {
				t.Errorf("%s: column %s where an optional %s was added", name, f.Name(), added[i])
			}
		}
		group := parquet.Group{}
		for _, f := range fields[:len(fields)-len(added)] {
			group[f.Name()] = f
		}
		kept := parquet.NewSchema(now.Schema().Name(), orderedGroup{group, fields[:len(fields)-len(added)]})
		if o, n := old.Schema().String(), kept.String(); o != n {
			t.Errorf("%s: schema\n%s\nwas\n%s", name, n, o)
		}
		nowStats := slices.DeleteFunc(statsColumns(now), func(c string) bool { return slices.Contains(added, c) })
		if o := statsColumns(old); !reflect.DeepEqual(o, nowStats) {
			t.Errorf("%s: columns with statistics %v, were %v", name, nowStats, o)
		}
	}
}

// orderedGroup is a group node of fields in the order given (a
// parquet.Group sorts them by name).
type orderedGroup struct {
	parquet.Group
	fields []parquet.Field
}

func (g orderedGroup) Fields() []parquet.Field { return g.fields }

// statsColumns lists the columns of a file whose first row group has
// min/max statistics.
func statsColumns(pf *parquet.File) []string {
	var out []string
	for i, c := range pf.Metadata().RowGroups[0].Columns {
		if st := c.MetaData.Statistics; len(st.MinValue) > 0 || len(st.MaxValue) > 0 {
			out = append(out, pf.Schema().Columns()[i][0])
		}
	}
	return out
}

// testdata/format-2 holds the journals a killed client of the build
// before the commit error code, the node and the value of a state were
// recorded leaves: formatRows in two frames (executions-h-0.rows, the
// second layout) and formatStatus in two (status-h-0.rows, the first).
const format2Dir = "testdata/format-2"

// TestReadsJournalsOfTheBuildBefore: the journals of testdata/format-2
// turn into the rows they were written from, with the columns added since
// empty.
func TestReadsJournalsOfTheBuildBefore(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"executions-h-0.rows", "status-h-0.rows"} {
		b, err := os.ReadFile(filepath.Join(format2Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fail := func(err error) { t.Errorf("warning: %v", err) }
	if _, err := Recover(dir, fail); err != nil {
		t.Fatal(err)
	}
	var rows []Execution
	if _, err := ScanExecutions(dir, fail, func(e *Execution) error {
		rows = append(rows, *e)
		rows[len(rows)-1].Params = append([]string(nil), e.Params...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sameRows(t, rows, formatRows())
	var status []Status
	if err := ScanStatus(dir, fail, func(s *Status) error { status = append(status, *s); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(status, formatStatus()) {
		t.Errorf("status rows:\n got %+v\nwant %+v", status, formatStatus())
	}
}
