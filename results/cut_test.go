package results

import (
	"reflect"
	"testing"
	"time"
)

// Statements cut at the end are handed over apart by the column reader,
// whatever row group they fall in, and the other rows of their group are
// read as always; the row reader gives them with CutAtEnd set. Files
// without the column (plainRow, as older runs wrote) hold none.
func TestCutAtEndReadApart(t *testing.T) {
	dir := columnsFixture(t, false) // includes a file without cut_at_end

	d, err := CreateWithOptions(t.TempDir(), "r2", "h", Options{RowGroupRows: 700, FileRows: 2500, FileAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ew, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	rows := sampleExecutions(0, 2000)
	cutAt := map[int]bool{5: true, 699: true, 700: true, 1999: true}
	var kept []flatRow
	for i := range rows {
		if cutAt[i] {
			rows[i].CutAtEnd, rows[i].ErrorCode, rows[i].LatencyNs = true, ErrCutAtEnd, int64(30+i)*int64(time.Second)
		}
		rows[i].Checksum = ""
	}
	if err := ew.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for i, e := range rows {
		if !cutAt[i] {
			r := flatRow{Scenario: e.Scenario, Latency: e.LatencyNs, Code: e.ErrorCode}
			kept = append(kept, r)
		}
	}

	var got []flatRow
	var cut []CutExecution
	if _, err := ScanExecutionColumns(d.Path(), nil, ColumnScan{}, func(c *ExecutionColumns) error {
		for i := range c.Len {
			got = append(got, flatRow{Scenario: c.Scenario.At(i), Latency: c.LatencyNs[i], Code: c.ErrorCode[i]})
		}
		cut = append(cut, c.Cut...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(kept) {
		t.Fatalf("%d rows read by columns, want %d", len(got), len(kept))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], kept[i]) {
			t.Fatalf("row %d: %+v, want %+v", i, got[i], kept[i])
		}
	}
	if len(cut) != len(cutAt) {
		t.Fatalf("%d cut statements, want %d: %+v", len(cut), len(cutAt), cut)
	}
	for _, c := range cut {
		if c.RanNs < 30*int64(time.Second) || c.Scenario == "" || c.StartNs == 0 {
			t.Errorf("cut statement %+v", c)
		}
	}

	n := 0
	if _, err := ScanExecutions(d.Path(), nil, func(e *Execution) error {
		if e.CutAtEnd {
			n++
			if e.ErrorCode != ErrCutAtEnd {
				t.Errorf("cut row with error code %d", e.ErrorCode)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != len(cutAt) {
		t.Errorf("row reader: %d cut rows, want %d", n, len(cutAt))
	}

	// A file written before the column existed holds no cut statement
	// (TestColumnsMatchRows reads its rows).
	if _, err := ScanExecutionColumns(dir, nil, ColumnScan{}, func(c *ExecutionColumns) error {
		if len(c.Cut) > 0 {
			t.Errorf("cut statements in a run without the column: %+v", c.Cut)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
