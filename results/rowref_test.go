package results

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReadExecutionsAt: the rows a column scan points at are read back
// whole by their refs, also in row groups holding rows cut at the end
// (which the columns leave out), in any order of refs, the same row twice
// and rows next to each other; a ref past its file's rows is warned about.
func TestReadExecutionsAt(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{RowGroupRows: 700, FileRows: 2500, FileAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ew, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	rows := sampleExecutions(0, 6000)
	for i := range rows {
		rows[i].Params = append(rows[i].Params, fmt.Sprint("row ", i))
		if i%333 == 5 {
			rows[i].CutAtEnd = true
		}
	}
	if err := ew.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	type seen struct {
		ref     RowRef
		latency int64
		start   int64
	}
	var all []seen
	if _, err := ScanExecutionColumns(d.Path(), nil, ColumnScan{}, func(c *ExecutionColumns) error {
		for i := range c.Len {
			all = append(all, seen{c.Ref(i), c.LatencyNs[i], c.StartNs[i]})
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := 6000 - 6000/333 - 1; len(all) != want {
		t.Fatalf("%d rows scanned, want %d", len(all), want)
	}
	var refs []RowRef
	var want []seen
	for i := len(all) - 1; i >= 0; i -= 41 { // backwards: refs in any order
		refs, want = append(refs, all[i].ref), append(want, all[i])
	}
	for _, k := range []int{10, 10, 11, 699, 700} { // the same row twice, neighbours, across a group's end
		refs, want = append(refs, all[k].ref), append(want, all[k])
	}
	refs = append(refs, RowRef{File: all[0].ref.File, Group: 0, Row: 1 << 20})
	var warnings []string
	got := ReadExecutionsAt(refs, SelectExecutionFields("Start", "LatencyNs", "Params", "Thread"), func(err error) { warnings = append(warnings, err.Error()) })
	for i, w := range want {
		e := got[i]
		if e == nil || e.LatencyNs != w.latency || e.Start.UnixNano() != w.start || e.CutAtEnd || e.Scenario != "" {
			t.Fatalf("ref %+v: row %+v, want latency %d start %d", w.ref, e, w.latency, w.start)
		}
		n := slices.IndexFunc(rows, func(r Execution) bool { return r.Start.UnixNano() == w.start })
		if !slices.Equal(e.Params, rows[n].Params) || e.Thread != rows[n].Thread {
			t.Errorf("ref %+v: params %q thread %d, want %q %d", w.ref, e.Params, e.Thread, rows[n].Params, rows[n].Thread)
		}
	}
	if got[len(got)-1] != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "no row 1048576 in row group 0") {
		t.Errorf("a ref past the rows: %+v, warnings %q", got[len(got)-1], warnings)
	}
}
