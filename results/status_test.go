package results

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// statusSample is the rows of sample i of a run's server counters, as the
// sampler writes them every report interval.
func statusSample(i int) []Status {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
	var rows []Status
	for _, v := range []string{"Questions", "Innodb_buffer_pool_reads", "wsrep_local_recv_queue"} {
		rows = append(rows, Status{Endpoint: "127.0.0.1:3306", Time: at, Interval: 1, Variable: v, Delta: int64(i),
			Gauge: v == "wsrep_local_recv_queue"})
	}
	return rows
}

// TestStatusCarriesEveryColumn: every field of Status comes back from its
// journal as written.
func TestStatusCarriesEveryColumn(t *testing.T) {
	checkCarriesEveryField(t, func(rows []Status) ([]Status, error) {
		p := statusJournal.newEncoder().appendRows(nil, rows)
		return statusJournal.newDecoder(statusLayout).decodeRows(p, len(rows), nil)
	})
}

// TestStatusJournalled: server counters go to a journal as they are
// written, and become a status file every StatusFileAge, at Roll and at
// Close, numbered as the status files always were.
func TestStatusJournalled(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	d.now = func() time.Time { return clock }
	var want []Status
	write := func(i int) {
		rows := statusSample(i)
		want = append(want, rows...)
		if err := d.Status().Write(rows); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(time.Second)
	}
	for i := range 30 {
		write(i)
	}
	if f := listFiles(t, d.Path(), StatusGlob); len(f) != 0 {
		t.Errorf("status files before a minute: %v", f)
	}
	if j := listFiles(t, d.Path(), StatusJournalGlob); len(j) != 1 || filepath.Base(j[0]) != "status-h-0.rows" {
		t.Errorf("status journals %v, want status-h-0.rows", j)
	}
	for i := 30; i < 61; i++ {
		write(i)
	}
	if f := listFiles(t, d.Path(), StatusGlob); len(f) != 1 || len(readAll[Status](t, f)) != 61*3 {
		t.Errorf("after a minute: status files %v", f)
	}
	write(61)
	if err := d.Status().Roll(); err != nil {
		t.Fatal(err)
	}
	write(62)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	files := listFiles(t, d.Path(), "status-*")
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if fmt.Sprint(names) != "[status-h-0.parquet status-h-1.parquet status-h-2.parquet]" {
		t.Errorf("files %v", names)
	}
	got := readAll[Status](t, files)
	for i := range got {
		got[i].Time = got[i].Time.UTC()
		want[i].RunID = "r1"
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("read %d rows, want %d (or they differ)", len(got), len(want))
	}
}

// TestStatusKilledClientRecovered: a client killed with SIGKILL keeps
// every server counter sample it wrote, up to the last one: Recover,
// which report runs first, makes them a status file, and counts them.
func TestStatusKilledClientRecovered(t *testing.T) {
	if dir := os.Getenv("JOINBENCH_STATUS_KILL_CHILD"); dir != "" {
		statusKillChild(dir)
		return
	}
	dir := t.TempDir()
	killChildWhenReady(t, "TestStatusKilledClientRecovered", "JOINBENCH_STATUS_KILL_CHILD", dir)
	run := filepath.Join(dir, "run=killed")
	rec, err := Recover(run, func(err error) { t.Errorf("warning: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	var samples []int64
	if err := ScanStatus(run, func(err error) { t.Errorf("unreadable: %v", err) }, func(s *Status) error {
		if s.Variable == "Questions" {
			samples = append(samples, s.Delta)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// every sample written before READY, and those after it up to the kill
	if len(samples) < 25 {
		t.Fatalf("%d samples readable after the kill, want at least the 25 written before it", len(samples))
	}
	for i, s := range samples {
		if s != int64(i) {
			t.Fatalf("sample %d is sample %d: samples lost", i, s)
		}
	}
	if len(rec.StatusFiles) != 1 || rec.StatusRows != int64(3*len(samples)) {
		t.Errorf("Recover: %+v, want one status file of %d rows", rec, 3*len(samples))
	}
}

func statusKillChild(dir string) {
	d, err := CreateWithOptions(dir, "killed", "h", Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(3)
	}
	for i := 0; ; i++ {
		if err := d.Status().Write(statusSample(i)); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(3)
		}
		if i == 24 {
			fmt.Println("READY")
		}
		time.Sleep(time.Millisecond)
	}
}
