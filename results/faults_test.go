package results

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIdleRollMakesRowsReadable: rows written before a pause (a server that
// stopped answering) become readable once the file is old enough, without
// another write.
func TestIdleRollMakesRowsReadable(t *testing.T) {
	d, err := Create(t.TempDir(), "r1", "h")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d.now = func() time.Time { return clock }
	w, _ := d.NewExecutionWriter()
	if err := w.Write(sampleExecutions(0, 10)); err != nil {
		t.Fatal(err)
	}
	if err := w.RollIfOld(); err != nil || len(w.Files()) != 0 {
		t.Fatalf("a new file was finished: %v, %v", w.Files(), err)
	}
	clock = clock.Add(DefaultOptions().FileAge)
	if err := w.RollIfOld(); err != nil || len(w.Files()) != 1 {
		t.Fatalf("an old file was not finished: %v, %v", w.Files(), err)
	}
	if got := readAll[Execution](t, w.Files()); len(got) != 10 {
		t.Errorf("%d rows readable, want 10", len(got))
	}
	if err := w.RollIfOld(); err != nil || len(w.Files()) != 1 {
		t.Errorf("no open file: %v, %v", w.Files(), err)
	}
}

// TestFullDiskIsAWriteError: a file that cannot be written (here: every
// write fails as on a full disk) is a WriteError naming it; the finished
// files are kept and no half-written file is left.
func TestFullDiskIsAWriteError(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{FileRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := d.NewExecutionWriter()
	if err := w.Write(sampleExecutions(0, 100)); err != nil { // one finished file
		t.Fatal(err)
	}
	d.create = func(name string) (*os.File, error) {
		// Opened under its own name, every write fails with ENOSPC.
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return nil, err
		}
		f.Close()
		return os.OpenFile("/dev/full", os.O_WRONLY, 0)
	}
	err = w.Write(sampleExecutions(100, 50))
	if err == nil {
		err = w.Roll()
	}
	var we *WriteError
	if !errors.As(err, &we) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(we.Path, "executions-h-1.parquet") {
		t.Fatalf("error %v, want a WriteError of executions-h-1 with ENOSPC", err)
	}
	if tmp := listFiles(t, d.Path(), "*.tmp"); len(tmp) > 0 {
		t.Errorf("half-written files left: %v", tmp)
	}
	if got := readAll[Execution](t, listFiles(t, d.Path(), "executions-*.parquet")); len(got) != 100 {
		t.Errorf("%d rows kept, want the 100 of the finished file", len(got))
	}
	_ = d.Close()
}

// TestReadRunInfoWarnsOfLostExecutions: report and compare read run.json
// through ReadRunInfo, which says when the files hold fewer executions
// than run.json counts, when the run failed, and when it never ended.
func TestReadRunInfoWarnsOfLostExecutions(t *testing.T) {
	dir := t.TempDir()
	d, err := Create(dir, "r1", "h")
	if err != nil {
		t.Fatal(err)
	}
	w, _ := d.NewExecutionWriter()
	if err := w.Write(sampleExecutions(0, 30)); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	write := func(r Run) []string {
		b, _ := json.Marshal(r)
		if err := os.WriteFile(filepath.Join(d.Path(), RunFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
		var warned []string
		if ReadRunInfo(d.Path(), func(err error) { warned = append(warned, err.Error()) }) == nil {
			t.Fatal("run.json not read")
		}
		return warned
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if w := write(Run{RunID: "r1", ClientHost: "h", Start: start, End: start.Add(time.Minute), Executions: 30}); len(w) != 0 {
		t.Errorf("complete run: warnings %q", w)
	}
	w1 := write(Run{RunID: "r1", ClientHost: "h", Start: start, End: start.Add(time.Minute), Executions: 40,
		Error: "write executions: no space left on device"})
	if len(w1) != 2 || !strings.Contains(w1[0], "no space left") || !strings.Contains(w1[1], "counts 40 executions but the files hold 30") {
		t.Errorf("lost executions: warnings %q", w1)
	}
	if w := write(Run{RunID: "r1", ClientHost: "h", Start: start}); len(w) != 1 || !strings.Contains(w[0], "no end") ||
		!strings.Contains(w[0], "hold 30 executions") {
		t.Errorf("unfinished run: warnings %q", w)
	}
	if n, err := CountExecutions(d.Path(), "other"); n != 0 || err != nil {
		t.Errorf("another host's executions: %d, %v", n, err)
	}
}
