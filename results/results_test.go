package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

func sampleExecution(i int) Execution {
	start := time.Date(2026, 11, 30, 12, 1, 2, i, time.UTC)
	e := Execution{
		RunID:        "r1",
		Scenario:     fmt.Sprintf("scenario_%d", i%43),
		TemplateHash: "ab12cd34ef56ab78",
		Endpoint:     "127.0.0.1:3306",
		ClientHost:   "client-1",
		Thread:       int32(i % 16),
		Event:        int64(i / 16),
		StatementSeq: int32(i % 3),
		Start:        start,
		LatencyNs:    int64(100_000 + (i*7919)%5_000_000),
		Rows:         int64(i % 101),
		Retries:      int32(i % 2),
		PlanHash:     fmt.Sprintf("%016x", i%5),
		Params:       []string{"main1", []string{"active", "inactive", "pending"}[i%3], "Europe"},
		Checksum:     fmt.Sprintf("%016x:%d", i*2654435761, i%101),
	}
	if i%4 == 0 {
		t := start.Add(-time.Duration(i%1000) * time.Microsecond)
		e.IntendedStart = &t
	}
	if i%50 == 0 {
		e.ErrorCode, e.SQLState, e.ErrorMessage = 1213, "40001", "Deadlock found when trying to get lock"
		e.Checksum = ""
	}
	return e
}

func sampleExecutions(from, n int) []Execution {
	rows := make([]Execution, n)
	for i := range rows {
		rows[i] = sampleExecution(from + i)
	}
	return rows
}

func normalize(rows []Execution) {
	for i := range rows {
		rows[i].Start = rows[i].Start.UTC()
		if rows[i].IntendedStart != nil {
			t := rows[i].IntendedStart.UTC()
			rows[i].IntendedStart = &t
		}
		if len(rows[i].Params) == 0 {
			rows[i].Params = nil
		}
	}
}

func listFiles(t *testing.T, dir, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(m)
	return m
}

// openParquet opens a Parquet file for the test's duration.
func openParquet(t *testing.T, path string) *parquet.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

func readAll[T any](t *testing.T, files []string) []T {
	t.Helper()
	var all []T
	for _, f := range files {
		rows, err := parquet.ReadFile[T](f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		all = append(all, rows...)
	}
	return all
}

func TestNewRunID(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 1, 2, 0, time.FixedZone("x", 3600))
	id := NewRunID(now)
	if !strings.HasPrefix(id, "20261130T110102Z-") || len(id) != len("20261130T110102Z-0000") {
		t.Fatalf("NewRunID = %q", id)
	}
	if CheckRunID(id) != nil {
		t.Fatalf("own id rejected: %q", id)
	}
	if a, b := NewRunID(now), NewRunID(now.Add(time.Second)); a >= b {
		t.Errorf("ids do not sort by time: %q >= %q", a, b)
	}
	for _, bad := range []string{"", "a/b", "a=b", "..", `a\b`} {
		if _, err := Create(t.TempDir(), bad, "h"); err == nil {
			t.Errorf("Create accepted run id %q", bad)
		}
	}
}

func TestCreateExisting(t *testing.T) {
	dir := t.TempDir()
	d, err := Create(dir, "r1", "h")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "run=r1"); d.Path() != want {
		t.Errorf("Path = %q, want %q", d.Path(), want)
	}
	if _, err := Create(dir, "r1", "h"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second Create: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestExecutionsRoundTripManyRowGroups(t *testing.T) {
	// One file however slowly the rows are written (the race detector):
	// files rolled by age are TestExecutionsRollByRowsAndAge's.
	d, err := CreateWithOptions(t.TempDir(), "r1", "client/1", Options{RowGroupRows: 1000, FileAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	w, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	var want []Execution
	for i := 0; i < 25; i++ { // uneven pieces crossing row group bounds
		rows := sampleExecutions(len(want), 337+i)
		want = append(want, rows...)
		if err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if i == 10 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// empty RunID / ClientHost are filled in
	extra := []Execution{{Scenario: "x", Start: time.Unix(1, 0).UTC(), Params: []string{}}}
	if err := w.Write(extra); err != nil {
		t.Fatal(err)
	}
	want = append(want, Execution{RunID: "r1", ClientHost: "client/1", Scenario: "x", Start: time.Unix(1, 0).UTC()})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(extra); err == nil {
		t.Error("Write after RunDir.Close succeeded")
	}
	files := listFiles(t, d.Path(), "*")
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	if want := []string{"executions-client_1-0.parquet", "plans.parquet"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("files = %v, want %v", names, want)
	}
	pf := openParquet(t, files[0])
	if n := len(pf.RowGroups()); n < 9 {
		t.Errorf("%d row groups, want >= 9", n)
	}
	if v, ok := pf.Lookup("joinbench.run_id"); !ok || v != "r1" {
		t.Errorf("metadata run_id = %q, %v", v, ok)
	}
	sameRows(t, readAll[Execution](t, files[:1]), want)
	// column names are a contract
	var cols []string
	for _, c := range pf.Schema().Columns() {
		cols = append(cols, strings.Join(c, "."))
	}
	wantCols := "run_id scenario template_hash endpoint client_host thread event statement_seq start_time intended_start latency_ns rows error_code sql_state error_message retries plan_hash params.list.element result_checksum segment cut_at_end commit_error_code node warnings"
	if strings.Join(cols, " ") != wantCols {
		t.Errorf("columns:\n got %s\nwant %s", strings.Join(cols, " "), wantCols)
	}
}

func TestExecutionsRollByRowsAndAge(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{RowGroupRows: 100, FileRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d.now = func() time.Time { return clock }
	w1, _ := d.NewExecutionWriter()
	w2, _ := d.NewExecutionWriter()
	if err := w1.Write(sampleExecutions(0, 2500)); err != nil { // 1000 + 1000 + 500 open
		t.Fatal(err)
	}
	if err := w2.Write(sampleExecutions(2500, 10)); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(2 * time.Minute) // older than FileAge: the next write finishes the file
	if err := w2.Write(sampleExecutions(2510, 10)); err != nil {
		t.Fatal(err)
	}
	if got := len(w1.Files()); got != 2 {
		t.Errorf("w1 finished %d files, want 2", got)
	}
	if got := len(w2.Files()); got != 1 {
		t.Errorf("w2 finished %d files, want 1", got)
	}
	if err := w1.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w2.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	files := listFiles(t, d.Path(), "executions-*")
	if len(files) != 4 {
		t.Fatalf("files %v, want 4", files)
	}
	got := readAll[Execution](t, files)
	if len(got) != 2520 {
		t.Fatalf("%d rows, want 2520", len(got))
	}
	seen := map[int64]bool{}
	for _, r := range got {
		seen[r.Start.UnixNano()] = true
	}
	if len(seen) != 2520 {
		t.Errorf("%d distinct rows, want 2520", len(seen))
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestPlansDedupAndRoundTrip(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{PlanDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Plans()
	first := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				pl := Plan{Scenario: fmt.Sprintf("s%d", i%5), Endpoint: "e", PlanHash: "h", Format: "json",
					Explain: `{"query_block":{}}`, Query: "SELECT 1", FirstSeen: first}
				if err := p.Write(pl); err != nil {
					t.Error(err)
				}
				pl.Format = "tree"
				if err := p.Write(pl); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if _, err := os.Stat(filepath.Join(d.Path(), "plans.parquet")); !os.IsNotExist(err) {
		t.Errorf("plans.parquet written before the delay: %v", err)
	}
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	got := readAll[Plan](t, []string{filepath.Join(d.Path(), "plans.parquet")})
	if len(got) != 10 {
		t.Fatalf("%d plans, want 10 (5 scenarios x 2 formats)", len(got))
	}
	for _, pl := range got {
		if pl.RunID != "r1" || !pl.FirstSeen.Equal(first) || pl.Explain == "" || pl.Query != "SELECT 1" {
			t.Errorf("bad plan row %+v", pl)
		}
	}
	if !p.Seen("s1", "e", "h", "tree") || p.Seen("s1", "e", "other", "tree") {
		t.Error("Seen is wrong")
	}
	if err := p.Write(Plan{Scenario: "s9", PlanHash: "z", Format: "json"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	got = readAll[Plan](t, []string{filepath.Join(d.Path(), "plans.parquet")})
	if len(got) != 11 || got[10].Scenario != "s9" || got[10].FirstSeen.IsZero() {
		t.Fatalf("after Close: %d plans, last %+v", len(got), got[len(got)-1])
	}
}

func TestPlansWrittenAfterDelay(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{PlanDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Plans().Write(Plan{Scenario: "s", PlanHash: "h", Format: "json"}); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(d.Path(), "plans.parquet")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if rows, err := parquet.ReadFile[Plan](name); err == nil && len(rows) == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("plans.parquet not written in the background")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStatusRoundTrip(t *testing.T) {
	d, err := Create(t.TempDir(), "r1", "h")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var want []Status
	var wg sync.WaitGroup
	var mu sync.Mutex
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				rows := []Status{{Endpoint: fmt.Sprint("e", g), Time: now.Add(time.Duration(i) * time.Second),
					Interval: 1.0, Variable: "Handler_read_key", Delta: int64(i * g)}}
				if err := d.Status().Write(rows); err != nil {
					t.Error(err)
				}
				mu.Lock()
				want = append(want, rows...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	got := readAll[Status](t, listFiles(t, d.Path(), "status-h-*.parquet"))
	key := func(s Status) string { return fmt.Sprint(s.Endpoint, s.Time.UnixNano()) }
	sort.Slice(got, func(i, j int) bool { return key(got[i]) < key(got[j]) })
	sort.Slice(want, func(i, j int) bool { return key(want[i]) < key(want[j]) })
	for i := range got {
		got[i].Time = got[i].Time.UTC()
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("status rows differ: got %d rows, want %d", len(got), len(want))
	}
	if got[0].RunID != "r1" {
		t.Errorf("run id not filled: %q", got[0].RunID)
	}
}

func TestWriteRun(t *testing.T) {
	d, err := Create(t.TempDir(), "r1", "h")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r := &Run{RunID: "r1", ToolVersion: "dev", Flavor: "mariadb", Start: time.Unix(10, 0).UTC(),
		Options: &RunOptions{Threads: 4, Time: Duration(10 * time.Second)}, ServerVars: map[string]string{"join_buffer_size": "262144"}}
	if err := d.WriteRun(r); err != nil {
		t.Fatal(err)
	}
	r.End, r.Executions = time.Unix(20, 0).UTC(), 42
	if err := d.WriteRun(r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(d.Path(), "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got Run
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&got, r) {
		t.Errorf("run.json round trip:\n got %+v\nwant %+v", got, *r)
	}
	if tmp := listFiles(t, d.Path(), "*.tmp"); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestRunRecordsWriteKinds: run.json lists the scenarios that are not plain
// reads with the kinds of their statements, under stable keys, and a
// run.json written before the kinds existed still reads.
func TestRunRecordsWriteKinds(t *testing.T) {
	d, err := Create(t.TempDir(), "r1", "h")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r := &Run{RunID: "r1", Scenarios: []string{"drops", "reads", "locks"}, WriteScenarios: []string{"drops", "locks"},
		WriteKinds: map[string][]string{"drops": {"ddl"}, "locks": {"locking-read", "dml"}}}
	if err := d.WriteRun(r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(d.Path(), RunFile))
	if err != nil {
		t.Fatal(err)
	}
	const want = `"write_scenarios":["drops","locks"],"write_kinds":{"drops":["ddl"],"locks":["locking-read","dml"]}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(compact.String(), want) {
		t.Errorf("run.json does not hold %s:\n%s", want, b)
	}
	got := ReadRunInfo(d.Path(), func(err error) { t.Error(err) })
	if got == nil || !reflect.DeepEqual(got.WriteKinds, r.WriteKinds) || !reflect.DeepEqual(got.WriteScenarios, r.WriteScenarios) {
		t.Errorf("read back %+v", got)
	}
	var old Run
	if err := json.Unmarshal([]byte(`{"run_id":"old","write_scenarios":["index_updates"]}`), &old); err != nil ||
		old.WriteKinds != nil || old.WriteScenarios[0] != "index_updates" {
		t.Errorf("an older run.json: %+v, %v", old, err)
	}
}

// TestKillLeavesFinishedFilesReadable runs a child process that finishes
// one executions file, starts another, writes a run.json and plans, then
// blocks; the parent kills it with SIGKILL and reads what is on disk.
func TestKillLeavesFinishedFilesReadable(t *testing.T) {
	if dir := os.Getenv("JOINBENCH_RESULTS_KILL_CHILD"); dir != "" {
		killChild(dir)
		return
	}
	dir := t.TempDir()
	killChildWhenReady(t, "TestKillLeavesFinishedFilesReadable", "JOINBENCH_RESULTS_KILL_CHILD", dir)

	run := filepath.Join(dir, "run=killed")
	finished := listFiles(t, run, "executions-*.parquet")
	if len(finished) != 1 {
		t.Fatalf("finished executions files %v, want 1", finished)
	}
	rows := readAll[Execution](t, finished)
	if len(rows) != 5000 {
		t.Errorf("finished file holds %d rows, want 5000", len(rows))
	}
	if open := listFiles(t, run, "executions-*.parquet.tmp"); len(open) != 1 {
		t.Errorf("open files %v, want 1", open)
	}
	plans := readAll[Plan](t, []string{filepath.Join(run, "plans.parquet")})
	if len(plans) != 1 {
		t.Errorf("%d plans, want 1", len(plans))
	}
	b, err := os.ReadFile(filepath.Join(run, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil || r.RunID != "killed" {
		t.Errorf("run.json: %v %+v", err, r)
	}
}

// killChildWhenReady runs test in a child process with env set to dir,
// waits for it to print READY, and kills it with SIGKILL.
func killChildWhenReady(t *testing.T, test, env, dir string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	var got string
	for !strings.Contains(got, "READY") {
		n, err := out.Read(buf)
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child ended before READY: %v (output %q)", err, got)
		}
		got += string(buf[:n])
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}

func killChild(dir string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(3)
	}
	d, err := CreateWithOptions(dir, "killed", "h", Options{RowGroupRows: 1000, FileRows: 5000})
	if err != nil {
		fail(err)
	}
	if err := d.WriteRun(&Run{RunID: "killed"}); err != nil {
		fail(err)
	}
	if err := d.Plans().Write(Plan{Scenario: "s", PlanHash: "h", Format: "json"}); err != nil {
		fail(err)
	}
	if err := d.Plans().Flush(); err != nil {
		fail(err)
	}
	w, err := d.NewExecutionWriter()
	if err != nil {
		fail(err)
	}
	if err := w.Write(sampleExecutions(0, 7500)); err != nil { // one finished file, one half-written
		fail(err)
	}
	if err := w.Flush(); err != nil {
		fail(err)
	}
	fmt.Println("READY")
	time.Sleep(time.Minute)
	os.Exit(4)
}

// TestScanRefusesAnotherSchema: a plans file renamed into an executions
// file is skipped with a warning naming what is missing, not read as
// executions of zero latency.
func TestScanRefusesAnotherSchema(t *testing.T) {
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
	for _, f := range mustGlob(t, filepath.Join(d.Path(), ExecutionsGlob)) {
		os.Remove(f)
	}
	if err := os.Rename(filepath.Join(d.Path(), PlansFile), filepath.Join(d.Path(), "executions-h-000001.parquet")); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	rows := 0
	files, err := ScanExecutions(d.Path(), func(err error) { warnings = append(warnings, err.Error()) }, func(*Execution) error {
		rows++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows != 0 || files != 0 {
		t.Errorf("read %d rows from %d files of a plans file taken for executions", rows, files)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "not an executions file: no column") || !strings.Contains(warnings[0], "latency_ns") {
		t.Errorf("warnings = %q, want one naming the missing columns", warnings)
	}
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
