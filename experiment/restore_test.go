package experiment

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// The quiet window starts at the workload's measured start (the origin),
// however late that comes, not when the lesson began to wait: a late
// start shifts the window, it cannot empty it.
func TestRestoreQuietWindowStartsAtTheWorkload(t *testing.T) {
	origin := action.NewOrigin()
	late := time.Now().Add(50 * time.Millisecond)
	go func() {
		time.Sleep(time.Until(late))
		origin.Set(late)
	}()
	w, err := quietWindow(context.Background(), origin, make(chan struct{}), 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !w[0].Equal(late) || !w[1].Equal(late.Add(20*time.Millisecond)) {
		t.Errorf("window %v, want from the origin %s for 20ms", w, late)
	}
	if time.Now().Before(w[1]) {
		t.Error("quietWindow returned before its window's end")
	}
}

// A run that ends before its quiet window does (or before its workload
// ever succeeded) is an error, not a restore without a window; an
// interrupted lesson is ctx's error.
func TestRestoreQuietWindowWithoutItsRun(t *testing.T) {
	ended := make(chan struct{})
	close(ended)
	if _, err := quietWindow(context.Background(), action.NewOrigin(), ended, time.Hour); !errors.Is(err, errRunEnded) {
		t.Errorf("run ended before the origin: %v, want errRunEnded", err)
	}
	set := action.NewOrigin()
	set.Set(time.Now())
	if _, err := quietWindow(context.Background(), set, ended, time.Hour); !errors.Is(err, errRunEnded) {
		t.Errorf("run ended inside the window: %v, want errRunEnded", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := quietWindow(ctx, action.NewOrigin(), make(chan struct{}), time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted: %v, want context.Canceled", err)
	}
}

// quietExecutions counts the successes that ended inside the window, from
// the run's own files: failures and executions outside it do not count.
func TestRestoreQuietExecutions(t *testing.T) {
	d, err := results.Create(t.TempDir(), "r", "h")
	if err != nil {
		t.Fatal(err)
	}
	ew, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	row := func(start time.Duration, code int32) results.Execution {
		return results.Execution{RunID: "r", Scenario: "point_update", Endpoint: "h:1", Start: t0.Add(start), LatencyNs: int64(ms(10)), ErrorCode: code}
	}
	rows := []results.Execution{
		row(ms(0), 0),       // ends before the window
		row(ms(995), 0),     // ends at 1.005 s: inside
		row(ms(1500), 0),    // inside
		row(ms(1600), 1213), // inside, but failed
		row(ms(2995), 0),    // ends at 3.005 s: after
	}
	if err := ew.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	n, err := quietExecutions(d.Path(), [2]time.Time{t0.Add(time.Second), t0.Add(3 * time.Second)})
	if err != nil || n != 2 {
		t.Errorf("quiet executions %d, %v; want 2", n, err)
	}
	none, err := quietExecutions(d.Path(), [2]time.Time{t0.Add(time.Hour), t0.Add(2 * time.Hour)})
	if err != nil || none != 0 {
		t.Errorf("an empty window: %d, %v", none, err)
	}
}

// A restore refused for its empty quiet window is named on the page and
// counted out of the tally; the verdict is drawn from the others, and
// says so; with none left there is no verdict.
func TestRestorePageNamesRefusedRestores(t *testing.T) {
	r := sandbox.Restore{Node: "node3", UseMemory: "32M", BackupBytes: 60e6, RedoBytes: 400e6,
		BackupStart: t0, BackupEnd: t0.Add(100 * time.Second), PrepareStart: t0.Add(100 * time.Second), PrepareEnd: t0.Add(160 * time.Second),
		CopyStart: t0.Add(160 * time.Second), CopyEnd: t0.Add(161 * time.Second), MultiBatch: true, Batches: 7}
	r.Join.Synced, r.Join.Transfer = t0.Add(180*time.Second), "ist"
	o := Options{Node: "node3", Repetitions: 2, UseMemory: []string{"32M"}}
	p := restorePage(o, []restoreResult{{useMemory: "32M", restores: []sandbox.Restore{r}, refused: []string{"use-memory-32M-2"}}})
	p.settle(Tally{Unit: "restores", Planned: 2, Judged: p.Tally.Judged})
	if p.Tally.Judged != 1 || !strings.HasPrefix(p.Verdict, "from 1 of 2 restores only: redo apply was 75% of the restore with 32M") {
		t.Errorf("tally %+v, verdict %q", p.Tally, p.Verdict)
	}
	if want := "not judged: restore use-memory-32M-2, whose quiet window had no successful execution"; !strings.Contains(strings.Join(p.Notes, "\n"), want) {
		t.Errorf("notes lack %q:\n%s", want, strings.Join(p.Notes, "\n"))
	}
	want := "32M|60|100|400.0|60.0|6.7|1.0|19.0|80.0|75%|7|ist"
	if len(p.Table.Rows) != 1 || strings.Join(p.Table.Rows[0], "|") != want {
		t.Errorf("rows %q, want %q", p.Table.Rows, want)
	}
	none := restorePage(o, []restoreResult{{useMemory: "32M", refused: []string{"use-memory-32M-1", "use-memory-32M-2"}}})
	none.settle(Tally{Unit: "restores", Planned: 2, Judged: none.Tally.Judged})
	if !strings.HasPrefix(none.Verdict, "none: no restores of the 2 planned could be judged (no restore had a quiet window with traffic)") || len(none.Table.Rows) != 0 {
		t.Errorf("verdict %q, %d rows", none.Verdict, len(none.Table.Rows))
	}
}

// With --one-backup the order rotates: each value is in turn the first
// prepared and the one restored.
func TestOneBackupOrderRotates(t *testing.T) {
	values := []string{"32M", "100M", "512M", "2G"}
	for rep, want := range []string{"2G|32M,100M,512M", "32M|100M,512M,2G", "100M|512M,2G,32M", "512M|2G,32M,100M", "2G|32M,100M,512M"} {
		main, also := oneBackupOrder(values, rep)
		if got := main + "|" + strings.Join(also, ","); got != want {
			t.Errorf("repetition %d: %s, want %s", rep+1, got, want)
		}
	}
}

// With --prepare-read-iops the page says the cap, its disk and what it
// stands for, in its text and its HTML, and gives each value's disk reads
// under it; the share is drawn against --use-memory; the phases keep the
// cap, and a projection from them says its apply rates are on that disk.
func TestRestorePageShowsThePrepareCap(t *testing.T) {
	restore := func(mem string, prepare, reads int64) sandbox.Restore {
		r := sandbox.Restore{Node: "node3", UseMemory: mem, BackupBytes: 60e6, RedoBytes: 400e6, PrepareReadIOPS: 250, PrepareReadDevice: "254:0",
			PrepareDirect: true, PrepareReadOps: reads,
			BackupStart: t0, BackupEnd: t0.Add(100 * time.Second), PrepareStart: t0.Add(100 * time.Second), PrepareEnd: t0.Add(time.Duration(100+prepare) * time.Second)}
		r.CopyStart, r.CopyEnd = r.PrepareEnd, r.PrepareEnd.Add(time.Second)
		r.Join.Synced, r.Join.Transfer = r.CopyEnd.Add(20*time.Second), "ist"
		return r
	}
	o := Options{Node: "node3", Repetitions: 1, UseMemory: []string{"32M", "2G"}, PrepareReadIOPS: 250, OneBackup: true}
	results := []restoreResult{{useMemory: "32M", restores: []sandbox.Restore{restore("32M", 200, 48000)}},
		{useMemory: "2G", restores: []sandbox.Restore{restore("2G", 40, 9000)}}}
	p := restorePage(o, results)
	p.settle(Tally{Unit: "restores", Planned: 2, Judged: p.Tally.Judged})
	h := p.Table.Header
	if len(h) < 2 || h[len(h)-2] != "prepare's disk reads (k)" || h[len(h)-1] != "disk reads/s" {
		t.Errorf("header %q, want the disk reads last", h)
	}
	if got := strings.Join(p.Table.Rows[0][len(h)-2:], "|"); got != "48.0|240" {
		t.Errorf("32M's disk reads %q, want 48.0|240", got)
	}
	text, md, html := rendered(t, p)
	if want := "the prepares read from a disk held at 250 reads a second, with O_DIRECT"; !strings.Contains(text, want) {
		t.Errorf("the printed page lacks %q:\n%s", want, text)
	}
	for _, want := range []string{"held at 250 reads a second (--prepare-read-iops", "reads were held at 250 a second", "disk 254:0", "O_DIRECT"} {
		if !strings.Contains(md, want) {
			t.Errorf("the markdown page lacks %q:\n%s", want, md)
		}
		if !strings.Contains(html, want) {
			t.Errorf("the HTML page lacks %q", want)
		}
	}
	if len(p.Figures) != 2 || !strings.Contains(string(p.Figures[0].SVG), "redo share") {
		t.Errorf("figures %d, want the share against --use-memory first", len(p.Figures))
	}
	f := phasesOf(o, results, nil)
	if f.Restores[0].PrepareReadIOPS != 250 || f.Restores[0].PrepareReadOps != 48000 {
		t.Errorf("phases %+v, want the cap and the reads kept", f.Restores[0])
	}
	if c := cappedNote(f); !strings.Contains(c, "held at 250 a second") {
		t.Errorf("the projection's note %q", c)
	}
	if c := cappedNote(phasesOf(Options{}, []restoreResult{{useMemory: "2G", restores: []sandbox.Restore{{UseMemory: "2G"}}}}, nil)); c != "" {
		t.Errorf("a note without a cap: %q", c)
	}
	// Without the cap the table is as it was.
	o.PrepareReadIOPS = 0
	if h := restorePage(o, results).Table.Header; h[len(h)-1] != "joined by" {
		t.Errorf("header without a cap %q", h)
	}
}
