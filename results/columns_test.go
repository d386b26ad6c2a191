package results

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// flatRow is one row as both readers give it, for comparing them.
type flatRow struct {
	Scenario, Template, Plan       string
	Start, Intended, Latency, Rows int64
	Code, Retries, Commit          int32
	Checksum                       string
	Params                         []string
	Client                         string
	Segment                        int32
}

// plainRow is an executions row as another tool may write it: no
// dictionary encoding, no optional columns but one.
type plainRow struct {
	Scenario     string    `parquet:"scenario"`
	TemplateHash string    `parquet:"template_hash"`
	Start        time.Time `parquet:"start_time,timestamp(nanosecond)"`
	LatencyNs    int64     `parquet:"latency_ns"`
	Rows         int64     `parquet:"rows"`
	ErrorCode    int32     `parquet:"error_code"`
	PlanHash     string    `parquet:"plan_hash,optional"`
	Params       []string  `parquet:"params,list"`
}

// columnsFixture writes a run of several files of several row groups,
// nulls in the optional columns, a file written without dictionaries and
// the broken files a killed or mistaken run leaves.
func columnsFixture(t *testing.T, checksums bool) string {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{RowGroupRows: 700, FileRows: 2500, FileAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for w := 0; w < 3; w++ {
		ew, err := d.NewExecutionWriter()
		if err != nil {
			t.Fatal(err)
		}
		rows := sampleExecutions(w*10000, 3000+w*1111)
		for i := range rows {
			if i%7 == 0 {
				rows[i].PlanHash = ""
			}
			if !checksums {
				rows[i].Checksum = ""
			}
			rows[i].ClientHost, rows[i].Segment = fmt.Sprintf("client-%d", w), int32(1+i%3)
			if i%9 == 2 && w > 0 {
				rows[i].CommitErrorCode = 1213
			}
		}
		if err := ew.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	dir := d.Path()
	var plain []plainRow
	for i := range 1500 {
		e := sampleExecution(50000 + i)
		plain = append(plain, plainRow{Scenario: e.Scenario, TemplateHash: e.TemplateHash, Start: e.Start, LatencyNs: e.LatencyNs,
			Rows: e.Rows, ErrorCode: e.ErrorCode, PlanHash: e.PlanHash, Params: e.Params})
	}
	f, err := os.Create(filepath.Join(dir, "executions-other-1.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	pw := parquet.NewGenericWriter[plainRow](f, parquet.MaxRowsPerRowGroup(600))
	if _, err := pw.Write(plain); err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	files := mustGlob(t, filepath.Join(dir, "executions-h-*.parquet"))
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"executions-h-90.parquet": b[:len(b)/2], "executions-h-91.parquet": nil} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func flatByRows(t *testing.T, dir string) (rows []flatRow, files int, warnings []string) {
	files, err := ScanExecutionFields(dir, func(err error) { warnings = append(warnings, err.Error()) }, ExecutionFields{columnFields}, func(e *Execution) error {
		r := flatRow{Scenario: e.Scenario, Template: e.TemplateHash, Plan: e.PlanHash, Start: e.Start.UnixNano(),
			Latency: e.LatencyNs, Rows: e.Rows, Code: e.ErrorCode, Retries: e.Retries, Commit: e.CommitErrorCode,
			Checksum: e.Checksum, Params: slices.Clone(e.Params), Client: e.ClientHost, Segment: e.Segment}
		if e.IntendedStart != nil {
			r.Intended = e.IntendedStart.UnixNano()
		}
		if len(r.Params) == 0 {
			r.Params = nil
		}
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows, files, warnings
}

func flatByColumns(t *testing.T, dir string, opt ColumnScan) (rows []flatRow, files int, warnings []string) {
	files, err := ScanExecutionColumns(dir, func(err error) { warnings = append(warnings, err.Error()) }, opt, func(c *ExecutionColumns) error {
		for i := range c.Len {
			r := flatRow{Scenario: c.Scenario.At(i), Template: c.TemplateHash.At(i), Plan: c.PlanHash.At(i), Start: c.StartNs[i],
				Intended: c.IntendedStartNs[i], Latency: c.LatencyNs[i], Rows: c.Rows[i], Code: c.ErrorCode[i],
				Retries: c.Retries[i], Commit: c.CommitErrorCode[i]}
			if c.Checksum != nil && c.Checksum[i] != "" {
				r.Checksum, r.Params = c.Checksum[i], c.Params[i]
			}
			if opt.Clients {
				r.Client, r.Segment = c.ClientHost.At(i), c.Segment[i]
			} else if c.ClientHost.Index[i] != -1 || c.Segment != nil {
				t.Fatalf("client columns given unasked")
			}
			rows = append(rows, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows, files, warnings
}

// TestColumnsMatchRows: reading by columns, in parallel, gives the rows a
// scan row by row gives, in the same order, with the same warnings.
func TestColumnsMatchRows(t *testing.T) {
	for _, checksums := range []bool{false, true} {
		dir := columnsFixture(t, checksums)
		want, wantFiles, wantWarn := flatByRows(t, dir)
		if len(want) != 3000+4111+5222+1500 || len(wantWarn) != 2 {
			t.Fatalf("fixture: %d rows, warnings %q", len(want), wantWarn)
		}
		for i := range want {
			if !checksums || want[i].Checksum == "" {
				want[i].Params = nil // not asked for, or not given without a checksum
			}
		}
		for _, workers := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("checksums=%v/workers=%d", checksums, workers), func(t *testing.T) {
				var byRows sync.Map
				testHookByRows = func(path string, g int) { byRows.Store(fmt.Sprintf("%s:%d", filepath.Base(path), g), true) }
				defer func() { testHookByRows = nil }()
				defer func() {
					// Only the truncated file's broken group goes row by row
					// (to say how it fails): checksums and parameters are read
					// by columns, also in the file written without dictionaries.
					byRows.Range(func(k, _ any) bool {
						if !strings.HasPrefix(k.(string), "executions-h-90.parquet:") {
							t.Errorf("row group %s read row by row", k)
						}
						return true
					})
				}()
				want := want
				clients := workers != 2
				if !clients {
					want = slices.Clone(want)
					for i := range want {
						want[i].Client, want[i].Segment = "", 0
					}
				}
				got, files, warnings := flatByColumns(t, dir, ColumnScan{Checksums: checksums, Workers: workers, Clients: clients})
				if files != wantFiles || !reflect.DeepEqual(warnings, wantWarn) {
					t.Errorf("files %d, warnings %q; want %d, %q", files, warnings, wantFiles, wantWarn)
				}
				if len(got) != len(want) {
					t.Fatalf("%d rows, want %d", len(got), len(want))
				}
				for i := range want {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
					}
				}
			})
		}
	}
}

// TestColumnsStopOnCallbackError: an error from the callback ends the scan
// and is returned; the workers stop.
func TestColumnsStopOnCallbackError(t *testing.T) {
	dir := columnsFixture(t, false)
	stop := fmt.Errorf("enough")
	calls := 0
	_, err := ScanExecutionColumns(dir, nil, ColumnScan{Workers: 3}, func(*ExecutionColumns) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 2 {
		t.Errorf("err %v after %d calls, want %v after 2", err, calls, stop)
	}
}

// TestColumnsRefuseAnotherSchema: as ScanExecutions, a plans file taken
// for executions is skipped with the same warning.
func TestColumnsRefuseAnotherSchema(t *testing.T) {
	d, err := Create(t.TempDir(), "r1", "h")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Plans().Write(Plan{Scenario: "s", PlanHash: "h", Format: "json", Explain: "{}"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(d.Path(), PlansFile), filepath.Join(d.Path(), "executions-h-000001.parquet")); err != nil {
		t.Fatal(err)
	}
	_, wantFiles, wantWarn := flatByRows(t, d.Path())
	got, files, warnings := flatByColumns(t, d.Path(), ColumnScan{})
	if len(got) != 0 || files != wantFiles || !reflect.DeepEqual(warnings, wantWarn) || len(warnings) != 1 {
		t.Errorf("%d rows, %d files, warnings %q; want none, %d, %q", len(got), files, warnings, wantFiles, wantWarn)
	}
}

// TestColumnsReadAheadIsBounded: small files are not all read ahead of the
// caller: at most 2 per worker wait in memory, whatever the run's length.
func TestColumnsReadAheadIsBounded(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{FileRows: 50, FileAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	w, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(sampleExecutions(0, 60*50)); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	const workers = 2
	var mu sync.Mutex
	consumed, worst := 0, 0
	testHookFileStart = func(i int) {
		mu.Lock()
		worst = max(worst, i-consumed)
		mu.Unlock()
	}
	defer func() { testHookFileStart = nil }()
	files, err := ScanExecutionColumns(d.Path(), nil, ColumnScan{Workers: workers}, func(c *ExecutionColumns) error {
		time.Sleep(time.Millisecond) // a caller slower than the reading
		mu.Lock()
		consumed++ // one row group a file
		mu.Unlock()
		return nil
	})
	if err != nil || files != 60 || consumed != 60 {
		t.Fatalf("%d files, %d row groups, %v", files, consumed, err)
	}
	if worst > 2*workers {
		t.Errorf("a file was started %d files ahead of the caller, want at most %d", worst, 2*workers)
	}
}

// TestColumnsSkipped: columns asked to be skipped read as empty, the
// others as ever.
func TestColumnsSkipped(t *testing.T) {
	dir := columnsFixture(t, false)
	want, _, _ := flatByRows(t, dir)
	got, _, _ := flatByColumns(t, dir, ColumnScan{SkipTemplates: true, SkipRows: true})
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		w := want[i]
		w.Template, w.Rows, w.Params, w.Client, w.Segment = "", 0, nil, "", 0
		if !reflect.DeepEqual(got[i], w) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], w)
		}
	}
}

// TestColumnsEachSeesEveryGroupOnItsWorker: ColumnScan.Each sees every row
// group once, on a worker in range, before fn sees it in order; and an
// error from it stops the scan.
func TestColumnsEachSeesEveryGroupOnItsWorker(t *testing.T) {
	dir := columnsFixture(t, false)
	want, _, _ := flatByRows(t, dir)
	for _, workers := range []int{1, 3} {
		perWorker := make([]int, workers) // each worker writes its own: the race detector checks the calls are its own
		var seen sync.Map
		var ordered int
		_, err := ScanExecutionColumns(dir, nil, ColumnScan{Workers: workers, Each: func(w int, c *ExecutionColumns) error {
			perWorker[w] += c.Len
			seen.Store(c, c.Len)
			return nil
		}}, func(c *ExecutionColumns) error {
			if n, ok := seen.LoadAndDelete(c); !ok || n != c.Len {
				t.Errorf("fn saw a row group Each did not")
			}
			ordered += c.Len
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, n := range perWorker {
			total += n
		}
		if total != len(want) || ordered != len(want) {
			t.Errorf("%d workers: Each saw %d rows, fn %d, want %d", workers, total, ordered, len(want))
		}
		// Without fn, Each alone does the work.
		var alone atomic.Int64
		if _, err := ScanExecutionColumns(dir, nil, ColumnScan{Workers: workers, Each: func(w int, c *ExecutionColumns) error {
			alone.Add(int64(c.Len))
			return nil
		}}, nil); err != nil || alone.Load() != int64(len(want)) {
			t.Errorf("%d workers, no fn: %d rows, %v", workers, alone.Load(), err)
		}
	}
	stop := fmt.Errorf("enough")
	var calls atomic.Int64
	_, err := ScanExecutionColumns(dir, nil, ColumnScan{Workers: 2, Each: func(int, *ExecutionColumns) error {
		if calls.Add(1) == 2 {
			return stop
		}
		return nil
	}}, nil)
	if err != stop {
		t.Errorf("err %v, want %v", err, stop)
	}
}

// TestColumnsChecksumsKeepTheirRows: rows returned are skipped, but not
// beside a checksum, which a comparison judges with them (a LIMIT cut).
func TestColumnsChecksumsKeepTheirRows(t *testing.T) {
	dir := columnsFixture(t, true)
	want, _, _ := flatByRows(t, dir)
	got, _, _ := flatByColumns(t, dir, ColumnScan{Checksums: true, SkipRows: true})
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	sums := 0
	for i := range want {
		if want[i].Checksum != "" {
			sums++
			if got[i].Rows != want[i].Rows || got[i].Checksum != want[i].Checksum {
				t.Fatalf("row %d: rows %d checksum %q, want %d %q", i, got[i].Rows, got[i].Checksum, want[i].Rows, want[i].Checksum)
			}
		}
	}
	if sums == 0 {
		t.Fatal("fixture: no checksum")
	}
}

// TestColumnsAnsweredByStatistics: row groups whose statistics say a
// column holds only nulls (no intended start, no plan, no checksum) or
// only zeros (no error) read as those values, the same rows as read row by
// row; groups beside them that hold some are decoded.
func TestColumnsAnsweredByStatistics(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{RowGroupRows: 500, FileRows: 100000, FileAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ew, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	rows := sampleExecutions(0, 2000)
	for i := range rows {
		if i < 1000 || i >= 1500 { // groups 0, 1 and 3: nothing but latencies
			rows[i].IntendedStart, rows[i].PlanHash, rows[i].Checksum, rows[i].ErrorCode = nil, "", "", 0
		}
	}
	if err := ew.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	want, _, _ := flatByRows(t, d.Path())
	for i := range want {
		if want[i].Checksum == "" {
			want[i].Params = nil
		}
	}
	got, _, _ := flatByColumns(t, d.Path(), ColumnScan{Checksums: true, Clients: true})
	if len(got) != len(want) || len(want) != 2000 {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}
