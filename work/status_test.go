package work

import (
	"os"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
)

// readStatusFile reads a recorded StatusQuery result: name and value per
// line, tab-separated, as the mariadb client prints it.
func readStatusFile(t *testing.T, name string) Status {
	t.Helper()
	b, err := os.ReadFile("testdata/status/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var s Status
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		name, value, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("%q: not name<TAB>value", l)
		}
		s.Set(name, value)
	}
	return s
}

func want(t *testing.T, what string, c *int64, v int64) {
	t.Helper()
	if got, ok := Value(c); !ok || got != v {
		t.Errorf("%s = %v (known %v), want %d", what, got, ok, v)
	}
}

// The readings were taken on MariaDB 10.11 around simple_inner_index
// (testdata/mariadb/README.md): three readings back to back, the
// statement, a fourth.
func TestStatusWorkMariaDB(t *testing.T) {
	cost := readStatusFile(t, "mariadb_2.tsv").Sub(readStatusFile(t, "mariadb_1.tsv"))
	w := StatusWork(readStatusFile(t, "mariadb_before.tsv"), readStatusFile(t, "mariadb_after.tsv"), cost)
	if w.Source != results.SourceSessionStatus {
		t.Errorf("source %q", w.Source)
	}
	want(t, "rows_examined (Rows_read)", w.RowsExamined, 10401)
	want(t, "rows_sent", w.RowsSent, 100)
	want(t, "rows_changed", w.RowsChanged, 0)
	want(t, "handler_read_key", w.HandlerReadKey, 2859)
	want(t, "handler_read_next", w.HandlerReadNext, 10401)
	want(t, "tmp_tables", w.TmpTables, 1)
	want(t, "tmp_rows_read", w.TmpRowsRead, 944+100) // written, then read back sorted
	want(t, "sort_rows", w.SortRows, 100)
	want(t, "full_scans", w.FullScans, 0)
	if w.Pages != nil || len(w.Tables) != 0 {
		t.Errorf("session status has no pages or tables: %+v", w)
	}
}

// MySQL has neither Rows_read nor Handler_tmp_write (the readings here are
// constructed): rows examined are the handler reads, rows changed unknown.
func TestStatusWorkMySQL(t *testing.T) {
	var before, after Status
	for name, v := range map[string][2]string{
		"Handler_read_key": {"10", "2870"}, "Handler_read_next": {"5", "3805"},
		"Handler_read_rnd_next": {"40", "1001"}, "Handler_write": {"0", "944"},
		"Handler_update": {"0", "0"}, "Handler_delete": {"0", "0"}, "Created_tmp_tables": {"0", "1"},
	} {
		before.Set(name, v[0])
		after.Set(name, v[1])
	}
	w := StatusWork(before, after, Status{})
	want(t, "rows_examined", w.RowsExamined, 2860+3800+961)
	want(t, "handler_write", w.HandlerWrite, 944)
	if w.RowsChanged != nil || w.RowsSent != nil || w.TmpRowsRead != nil {
		t.Errorf("counters MySQL lacks are set: %+v", w)
	}
}
