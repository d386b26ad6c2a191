package experiment

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

// The figures below are made up, round to check the arithmetic: none is
// a measured magnitude.

func TestParseSize(t *testing.T) {
	for in, want := range map[string]float64{
		"512": 512, "1K": 1024, "10T": 10 << 40, "10TB": 10 << 40, "10TiB": 10 << 40, "10t": 10 << 40,
		"1.5G": 1.5 * (1 << 30), "2P": 2 << 50, " 3M ": 3 << 20, "4MB": 4 << 20,
	} {
		got, err := ParseSize("--project-size", in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "T", "10X", "-1G", "0", "0T", "ten", "10 T B", "iB", "1e3G", "10TT"} {
		_, err := ParseSize("--project-size", in)
		var u *usage.Error
		if !errors.As(err, &u) {
			t.Errorf("ParseSize(%q): %v, want a usage error", in, err)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "--project-size ") || strings.Contains(msg, "\n") {
			t.Errorf("ParseSize(%q): %q, want one line naming the flag", in, msg)
		}
	}
}

func TestParseRate(t *testing.T) {
	for in, want := range map[string]float64{"30MB/s": 30 << 20, "30M/s": 30 << 20, "30M": 30 << 20, "1G/sec": 1 << 30, "5KBps": 5 << 10, "100": 100} {
		got, err := ParseRate("--project-write-rate", in)
		if err != nil || got != want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"/s", "fast", "30MB/h", "-3M/s", "0/s"} {
		if _, err := ParseRate("--project-write-rate", in); err == nil || !strings.HasPrefix(err.Error(), "--project-write-rate ") {
			t.Errorf("ParseRate(%q): %v, want an error naming the flag", in, err)
		}
	}
}

// flagErr runs check on the restore lesson and returns its error.
func projectionErr(o Options) error { return checkProjection("restore", o) }

func TestProjectionFlags(t *testing.T) {
	if err := projectionErr(Options{ProjectSize: "10T", ProjectWriteRate: "30MB/s"}); err != nil {
		t.Fatal(err)
	}
	for o, want := range map[*Options]string{
		{ProjectSize: "ten"}:                           "--project-size",
		{ProjectSize: "10T", ProjectWriteRate: "x"}:    "--project-write-rate",
		{ProjectWriteRate: "30MB/s"}:                   "give --project-size too",
		{Validate: "/nonexistent/restore-phases.json"}: "--validate /nonexistent",
		{RatesFrom: []string{"/nonexistent"}}:          "--rates-from /nonexistent",
	} {
		err := projectionErr(*o)
		var u *usage.Error
		if !errors.As(err, &u) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want one usage line with %q", *o, err, want)
		}
	}
	if err := checkProjection("slow-node", Options{ProjectSize: "10T"}); err == nil || !strings.Contains(err.Error(), "only the restore lesson") {
		t.Errorf("slow-node with --project-size: %v", err)
	}
	// A file that is not one of restore's, or holds nothing.
	dir := t.TempDir()
	bad := filepath.Join(dir, "x.json")
	os.WriteFile(bad, []byte("{"), 0o644)
	if err := projectionErr(Options{Validate: bad}); err == nil || !strings.Contains(err.Error(), "not a restore-phases.json") {
		t.Errorf("a bad file: %v", err)
	}
	empty := filepath.Join(dir, "e.json")
	os.WriteFile(empty, []byte(`{"format":1}`), 0o644)
	if err := projectionErr(Options{Validate: empty}); err == nil || !strings.Contains(err.Error(), "holds no restore") {
		t.Errorf("an empty file: %v", err)
	}
	if err := projectionErr(Options{RatesFrom: []string{writePhases(t, phases(1e9, 1))}}); err == nil || !strings.Contains(err.Error(), "give --project-size") {
		t.Errorf("--rates-from alone: %v", err)
	}
}

// phases is a made-up measurement at size bytes: rates of 100 MB/s
// backup, 1000 MB/s copy, 10 MB/s of redo written, a backup starting
// with 50 MB of redo, 50 and 100 MB/s applied with 100M and 2G, a 10 s
// start and a 30 s join.
func phases(size float64, reps int) restorePhases {
	f := restorePhases{Format: restorePhasesFormat, TableSize: 1000}
	for range reps {
		for _, a := range []struct {
			mem  string
			rate float64
		}{{"100M", 50e6}, {"2G", 100e6}} {
			backup := size / 100e6
			redo := 50e6 + 10e6*backup
			prep := redo / a.rate
			copyS := size / 1000e6
			gap := prep + copyS + 10
			whole := backup + gap + 30
			f.Restores = append(f.Restores, measuredRestore{UseMemory: a.mem, BackupBytes: int64(size), RedoBytes: int64(redo),
				BackupSeconds: backup, PrepareSeconds: prep, CopySeconds: copyS, StartSeconds: 10, JoinSeconds: 30, GapSeconds: gap, Transfer: "ist",
				WrittenBytes: int64(10e6 * whole), WrittenSeconds: whole, CheckpointAge: 50e6})
		}
	}
	return f
}

func writePhases(t *testing.T, f restorePhases) string {
	t.Helper()
	p, err := f.write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

func TestRatesOf(t *testing.T) {
	r := ratesOf(phases(1e9, 2))
	if r.Restores != 4 || !near(r.DataBytes, 1e9) || !near(r.Backup, 100e6) || !near(r.Copy, 1000e6) || !near(r.WriteRate, 10e6) || !near(r.StartSeconds, 10) {
		t.Errorf("rates: %+v", r)
	}
	if len(r.Apply) != 2 || r.Apply[0].UseMemory != "100M" || !near(r.Apply[0].BytesPerSec, 50e6) || !near(r.Apply[1].BytesPerSec, 100e6) {
		t.Errorf("apply rates in the order measured: %+v", r.Apply)
	}
	if !near(r.Join, 100e6) || !near(r.JoinSeconds, 30) || !near(r.StartRedo, 50e6) {
		t.Errorf("the joiner's rate is the fastest apply, 100 MB/s (%v); J0 30 s (%v); A 50 MB (%v)", r.Join, r.JoinSeconds, r.StartRedo)
	}
	// Without a serving node's redo the backup's stands in: W0 its redo
	// per second, A nothing.
	f := phases(1e9, 1)
	for i := range f.Restores {
		f.Restores[i].WrittenBytes, f.Restores[i].WrittenSeconds, f.Restores[i].CheckpointAge = 0, 0, 0
	}
	if r := ratesOf(f); !near(r.WriteRate, 10e6+50e6/10) || r.StartRedo != 0 {
		t.Errorf("no redo measured: W0 %v, A %v", r.WriteRate, r.StartRedo)
	}
}

func TestProjectFormula(t *testing.T) {
	r := Rates{Backup: 100e6, Copy: 1000e6, StartSeconds: 10, JoinSeconds: 30, StartRedo: 1e9, Join: 40e6, Apply: []ApplyRate{{UseMemory: "100M", BytesPerSec: 50e6}}}
	const size, w = 1e12, 20e6
	p := r.Project(size, w, r.Apply[0])
	wantBackup := size / 100e6     // 10,000 s
	wantRedo := 1e9 + w*wantBackup // 201 GB
	wantPrep := wantRedo / 50e6    // 4,020 s
	wantCopy := size / 1000e6      // 1,000 s
	gap := wantPrep + wantCopy + 10
	wantJoin := 30 + w*gap/(40e6-w)
	for name, c := range map[string][2]float64{"backup": {p.Backup, wantBackup}, "redo": {p.Redo, wantRedo}, "prepare": {p.Prepare, wantPrep},
		"copy": {p.Copy, wantCopy}, "start": {p.Start, 10}, "gap": {p.Gap, gap}, "gcache": {p.GCache, w * gap}, "join": {p.Join, wantJoin},
		"total": {p.Total, wantBackup + wantPrep + wantCopy + 10 + wantJoin}} {
		if !near(c[0], c[1]) {
			t.Errorf("%s = %v, want %v", name, c[0], c[1])
		}
	}
	// Twice the size: backup and copy double, the redo with the backup.
	q := r.Project(2*size, w, r.Apply[0])
	if !near(q.Backup, 2*p.Backup) || !near(q.Copy, 2*p.Copy) || !near(q.Redo-1e9, 2*(p.Redo-1e9)) || q.Start != p.Start {
		t.Errorf("twice the size: %+v against %+v", q, p)
	}
	// Twice the write rate: the redo doubles, the backup and copy do not.
	q = r.Project(size, 2*w, r.Apply[0])
	if !near(q.Redo-1e9, 2*(p.Redo-1e9)) || q.Backup != p.Backup || q.Copy != p.Copy {
		t.Errorf("twice the write rate: %+v against %+v", q, p)
	}
	// A joiner no faster than the writes never catches up.
	if q := r.Project(size, 40e6, r.Apply[0]); !math.IsInf(q.Join, 1) || !math.IsInf(q.Total, 1) || durationText(q.Total) != "never" {
		t.Errorf("W = rj: join %v, total %v", q.Join, q.Total)
	}
	// No writes: the redo the backup starts with, the join's own cost.
	if q := r.Project(size, 0, r.Apply[0]); q.Redo != 1e9 || !near(q.Prepare, 1e9/50e6) || q.Join != 30 {
		t.Errorf("no writes: %+v", q)
	}
}

func TestDominant(t *testing.T) {
	r := Rates{Backup: 100e6, Copy: 1000e6, StartSeconds: 10, Join: math.Inf(1)}
	// Much redo per byte of data and a slow apply: the prepare dominates.
	if d := r.Project(1e12, 50e6, ApplyRate{UseMemory: "100M", BytesPerSec: 5e6}).Dominant(); d.Name != "prepare (redo apply)" {
		t.Errorf("a slow apply: %s dominates", d.Name)
	}
	// Few writes: the backup dominates.
	if d := r.Project(1e12, 1e3, ApplyRate{UseMemory: "100M", BytesPerSec: 5e6}).Dominant(); d.Name != "backup" {
		t.Errorf("few writes: %s dominates", d.Name)
	}
	// A tiny dataset: the start's constant dominates.
	if d := r.Project(1e6, 1e3, ApplyRate{UseMemory: "100M", BytesPerSec: 5e6}).Dominant(); d.Name != "start" {
		t.Errorf("a tiny dataset: %s dominates", d.Name)
	}
	// A joiner barely faster than the writes: the join dominates.
	r.Join = 20.1e6
	if d := r.Project(1e12, 20e6, ApplyRate{UseMemory: "100M", BytesPerSec: 500e6}).Dominant(); d.Name != "join (IST catch-up)" {
		t.Errorf("a slow joiner: %s dominates", d.Name)
	}
}

func TestHA(t *testing.T) {
	p := Projection{Total: 3600}
	ha := HAOf(p)
	if len(ha) != 2 || ha[0].Lost != 1 || ha[0].MinimalHA != 0 || ha[0].AllSynced != 3600 {
		t.Errorf("one lost: %+v", ha[0])
	}
	if ha[1].Lost != 2 || ha[1].MinimalHA != 3600 || ha[1].AllSynced != 7200 || ha[1].MinimalHA >= ha[1].AllSynced {
		t.Errorf("two lost: %+v", ha[1])
	}
}

func TestSavings(t *testing.T) {
	r := Rates{Backup: 100e6, Copy: 1000e6, StartSeconds: 10, Join: math.Inf(1), Apply: []ApplyRate{{UseMemory: "100M", BytesPerSec: 10e6}, {UseMemory: "2G", BytesPerSec: 40e6}}}
	var ps []Projection
	for _, a := range r.Apply {
		ps = append(ps, r.Project(1e12, 10e6, a))
	}
	s := Savings(ps)
	if len(s) != 1 || s[0].From != "100M" || s[0].To != "2G" || !near(s[0].Faster, 4) {
		t.Fatalf("savings: %+v", s)
	}
	// The redo is 100 GB: 10,000 s with 100M, 2,500 s with 2G.
	if !near(s[0].Seconds, 7500) || !near(s[0].Prepare, 7500) || !near(s[0].Share, 7500/ps[0].Total) {
		t.Errorf("saving %v s (%v), want 7500 s", s[0].Seconds, s[0].Share)
	}
	// A slower larger budget saves a negative time, said as such.
	r.Apply[1].BytesPerSec = 5e6
	sec, v := projection(r, 1e12, 10e6, false)
	if !strings.Contains(v, "more memory saves nothing") || len(sec.Notes) == 0 {
		t.Errorf("a slower 2G: %s", v)
	}
	if Savings(ps[:1]) != nil {
		t.Error("one value measured: no saving")
	}
}

func TestProjectionSection(t *testing.T) {
	r := ratesOf(phases(1e9, 1))
	s, v := projection(r, 10<<40, 30<<20, false)
	if s.Title != "Projected: one node rebuilt at 10.0 TiB under 30.0 MiB/s of redo" {
		t.Errorf("title %q", s.Title)
	}
	if len(s.Table.Header) != 3 || s.Table.Header[1] != "--use-memory 100M" {
		t.Errorf("header %v", s.Table.Header)
	}
	var names []string
	for _, row := range s.Table.Rows {
		names = append(names, row[0])
	}
	for _, want := range []string{"backup", "prepare (redo apply)", "copy into the data directory", "start", "join (IST catch-up)", "MTTR (one node, all Synced)",
		"dominant phase", "redo to apply", "gcache for an IST (W × G)", "1 lost: 2 of 3 Synced", "2 lost: all Synced"} {
		if !strings.Contains(strings.Join(names, "|"), want) {
			t.Errorf("no row %q in %v", want, names)
		}
	}
	for _, want := range []string{"projected at 10.0 TiB under 30.0 MiB/s", "dominates", "2 of 3 Synced after", "--use-memory 2G instead of 100M"} {
		if !strings.Contains(v, want) {
			t.Errorf("verdict %q lacks %q", v, want)
		}
	}
	// A joiner slower than the writes: the rebuild never ends, the time
	// until the join is given, and the memory's saving is the prepare's.
	slow := r
	slow.Join = 1e6
	_, v = projection(slow, 10<<40, 30<<20, false)
	for _, want := range []string{"one node's rebuild never ends", "never catches up", "the prepare", "cannot be compared"} {
		if !strings.Contains(v, want) {
			t.Errorf("a slow joiner: %q lacks %q", v, want)
		}
	}
	// The write rate measured stands in when none is given, and says so.
	if s, _ := projection(r, 10<<40, r.WriteRate, true); !strings.Contains(s.Title, "give --project-write-rate") {
		t.Errorf("measured write rate: %q", s.Title)
	}
}

func TestValidation(t *testing.T) {
	small, large := phases(1e9, 1), phases(4e9, 1)
	// The made-up phases follow the model: every phase is predicted.
	s, missed, v := validation(large, small)
	if missed != "" || !strings.Contains(v, "every phase predicted within 30%") {
		t.Errorf("a measurement the model fits: %q, %q", missed, v)
	}
	if len(s.Table.Rows) != 12 || s.Table.Rows[0][5] != "+0%" {
		t.Errorf("rows %v", s.Table.Rows)
	}
	if !strings.Contains(s.Title, "3.7 GiB restore(s) predicted from the 954 MiB") {
		t.Errorf("the larger is predicted from the smaller, whichever is given first: %q", s.Title)
	}
	// A larger whose prepare took twice as long as the rates say.
	for i := range large.Restores {
		large.Restores[i].PrepareSeconds *= 2
	}
	_, missed, v = validation(small, large)
	if !strings.Contains(missed, "missed by more than 30%: prepare (redo apply) with 100M (-50%)") || !strings.Contains(v, "not to be trusted") {
		t.Errorf("a prepare off by half: %q, %q", missed, v)
	}
	// A larger whose repetitions' prepares differ threefold: the miss of
	// their mean lies within their own range, and the page says so.
	noisy := phases(4e9, 2)
	for i := range noisy.Restores {
		if i < 2 {
			noisy.Restores[i].PrepareSeconds *= 3
		}
	}
	s, missed, _ = validation(small, noisy)
	if !strings.Contains(missed, "prepare (redo apply) with 100M (-50%)") || !strings.Contains(missed, "fell within the validated restores' own repetitions") {
		t.Errorf("a noisy larger: %q", missed)
	}
	if !strings.Contains(s.Table.Rows[1][3], " – ") {
		t.Errorf("the repetitions' range: %q", s.Table.Rows[1][3])
	}
	// No --use-memory value in common.
	other := phases(4e9, 1)
	for i := range other.Restores {
		other.Restores[i].UseMemory = "1G"
	}
	if _, missed, _ := validation(small, other); !strings.Contains(missed, "share no --use-memory") {
		t.Errorf("nothing in common: %q", missed)
	}
}

func TestRelError(t *testing.T) {
	if relError(12, 10) != 0.19999999999999996 && !near(relError(12, 10), 0.2) {
		t.Error(relError(12, 10))
	}
	if relError(0, 0) != 0 || !math.IsInf(relError(1, 0), 1) || errorText(math.Inf(1)) != "n/a (measured 0)" || errorText(-0.5) != "-50%" {
		t.Error("edge cases")
	}
}

func TestMeasure(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	r := sandbox.Restore{UseMemory: "2G", BackupBytes: 1000, RedoBytes: 100, BackupStart: at(0), BackupEnd: at(10), PrepareStart: at(11), PrepareEnd: at(15),
		CopyStart: at(15), CopyEnd: at(17), Join: sandbox.Recovery{Started: at(17), TransferStart: at(20), Writable: at(21), Synced: at(25), Transfer: "ist"}}
	m := measure(r, redoWritten{bytes: 500, seconds: 25, age: 40})
	want := measuredRestore{UseMemory: "2G", Backup: "2026-01-01T00:00:00Z", BackupBytes: 1000, RedoBytes: 100, BackupSeconds: 10, PrepareSeconds: 4, CopySeconds: 2, StartSeconds: 3, JoinSeconds: 5, GapSeconds: 10, Transfer: "ist",
		WrittenBytes: 500, WrittenSeconds: 25, CheckpointAge: 40}
	if m != want {
		t.Errorf("measure:\n got %+v\nwant %+v", m, want)
	}
	if !near(m.WriteRate(), 20) || m.startRedo() != 40 || !near(m.Whole(), r.RestoreSeconds()) {
		t.Errorf("write rate %v, start redo %v, whole %v against %v", m.WriteRate(), m.startRedo(), m.Whole(), r.RestoreSeconds())
	}
	// Without a serving node's redo: the backup's redo per second.
	if m := measure(r, redoWritten{}); !near(m.WriteRate(), 10) || m.startRedo() != 0 {
		t.Errorf("no redo measured: %v, %v", m.WriteRate(), m.startRedo())
	}
	// No transfer dated: the join starts when the node was writable.
	r.Join.TransferStart = time.Time{}
	if m := measure(r, redoWritten{}); m.StartSeconds != 4 || m.JoinSeconds != 4 {
		t.Errorf("no transfer: %+v", m)
	}
	// A transfer dated (to the second) before the copy ended.
	r.Join.TransferStart = at(16)
	if m := measure(r, redoWritten{}); m.StartSeconds != 4 {
		t.Errorf("a transfer dated before the copy: %+v", m)
	}
}

func TestProjectRestorePage(t *testing.T) {
	dir := t.TempDir()
	smallFile, largeFile := writePhases(t, phases(1e9, 2)), writePhases(t, phases(4e9, 1))
	p, err := ProjectRestore(Options{Out: dir, RatesFrom: []string{largeFile}, Validate: smallFile, ProjectSize: "10T", ProjectWriteRate: "30MB/s"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sections) != 3 || p.Sections[0].Title != "The MTTR model" || !strings.HasPrefix(p.Sections[1].Title, "Validation") || !strings.HasPrefix(p.Sections[2].Title, "Projected") {
		t.Fatalf("sections %+v", p.Sections)
	}
	if !strings.Contains(p.Verdict, "validated from") || !strings.Contains(p.Verdict, "projected at 10.0 TiB") {
		t.Errorf("verdict %q", p.Verdict)
	}
	text, md, html := rendered(t, p)
	for name, out := range map[string]string{"text": text, "markdown": md, "html": html} {
		for _, want := range []string{"The MTTR model", "MTTR = backup", "Validation", "Projected", "2 lost: all Synced"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	if _, err := ProjectRestore(Options{ProjectSize: "10T"}); err == nil {
		t.Error("no --rates-from: want an error")
	}
}

func TestRestoreDoneWritesPhases(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now()
	r := sandbox.Restore{UseMemory: "100M", BackupBytes: 1e6, RedoBytes: 1e5, BackupStart: t0, BackupEnd: t0.Add(time.Second), PrepareStart: t0.Add(time.Second),
		PrepareEnd: t0.Add(2 * time.Second), CopyStart: t0.Add(2 * time.Second), CopyEnd: t0.Add(3 * time.Second),
		Join: sandbox.Recovery{TransferStart: t0.Add(4 * time.Second), Synced: t0.Add(5 * time.Second), Transfer: "ist"}}
	e := &env{o: Options{Out: dir, Node: "node3", TableSize: 7, ProjectSize: "1T", Log: io.Discard}, lesson: "restore"}
	p := e.restoreDone([]restoreResult{{useMemory: "100M", restores: []sandbox.Restore{r}}})
	f, err := readRestorePhases("--validate", dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.TableSize != 7 || len(f.Restores) != 1 || f.Restores[0].UseMemory != "100M" {
		t.Errorf("phases written: %+v", f)
	}
	if len(p.Sections) != 2 || !strings.Contains(p.Verdict, "projected at 1.0 TiB") {
		t.Errorf("page: %+v", p)
	}
	// No restore: no file, no projection.
	dir2 := t.TempDir()
	e.o.Out = dir2
	if p := e.restoreDone(nil); len(p.Sections) != 0 {
		t.Error("a projection without a restore")
	}
	if _, err := os.Stat(filepath.Join(dir2, restorePhasesFile)); err == nil {
		t.Error("a phases file without a restore")
	}
}
