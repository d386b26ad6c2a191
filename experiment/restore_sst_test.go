package experiment

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// The figures below are made up, round to check the mechanisms and the
// arithmetic: none is a measured magnitude.

// sstRestore is a restore of mem joined by IST (Started at 10 s, Synced
// at 14 s), then rejoined by SST: started at 20 s, its copy from 22 to
// 38 s of bytes, Synced at 41 s.
func sstRestore(mem string, bytes int64) sandbox.Restore {
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	r := sandbox.Restore{Node: "node3", UseMemory: mem, BackupBytes: 60e6, RedoBytes: 4e6, BackupStart: at(0), BackupEnd: at(5),
		PrepareStart: at(5), PrepareEnd: at(8), CopyStart: at(8), CopyEnd: at(10)}
	r.Join = sandbox.Recovery{Transfer: sandbox.TransferIST, Started: at(10), TransferStart: at(11), TransferEnd: at(12), Writable: at(12), Synced: at(14)}
	r.Rejoin = sandbox.Recovery{Transfer: sandbox.TransferSST, Killed: at(14), Started: at(20), TransferStart: at(22), TransferEnd: at(38),
		Writable: at(39), Synced: at(41), TransferBytes: bytes}
	return r
}

// The page shows both joins: the SST's columns next to the join's, a
// note on how to read them, the SST against the IST in the verdict, in
// text and HTML; --join says what was done.
func TestRestorePageShowsBothJoins(t *testing.T) {
	o := Options{Node: "node3", Threads: 2, Repetitions: 1, Joins: []string{"ist", "sst"}}
	p := restorePage(o, []restoreResult{{useMemory: "2G", restores: []sandbox.Restore{sstRestore("2G", 80e6)}}})
	h := strings.Join(p.Table.Header, "|")
	if !strings.Contains(h, "join (s)|SST join (s)|SST sent (MB)|SST (MB/s)|whole restore (s)") {
		t.Errorf("header %q", h)
	}
	row := strings.Join(p.Table.Rows[0], "|")
	// The IST join from the copy's end, 4 s; the SST from its start,
	// 21 s, 80 MB in a 16 s transfer, 5 MB/s.
	if !strings.Contains(row, "|4.0|21.0|80|5.0|") || !strings.HasSuffix(row, "|ist") || len(p.Table.Rows[0]) != len(p.Table.Header) {
		t.Errorf("row %q", row)
	}
	if !strings.Contains(p.Verdict, "joined by SST (a full copy of 80 MB at 5.0 MB/s) the node took 21.0 s from its start to Synced, by IST 4.0 s (5.2x)") {
		t.Errorf("verdict %q", p.Verdict)
	}
	if !strings.Contains(p.What, "--join ist,sst") {
		t.Errorf("what %q", p.What)
	}
	text, _, html := rendered(t, p)
	for name, out := range map[string]string{"text": text, "html": html} {
		for _, want := range []string{"join (s)", "SST join (s)", "SST (MB/s)", "joined by SST"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	if !strings.Contains(html, restoreRejoin) {
		t.Error("the figure lacks the rejoin by SST")
	}
	bars := restoreBars([]restoreResult{{useMemory: "2G", restores: []sandbox.Restore{sstRestore("2G", 80e6)}}})
	if len(bars) != 1 || bars[0].Note != "ist, then sst" || bars[0].Spans[len(bars[0].Spans)-1].Kind != restoreRejoin {
		t.Errorf("bars %+v", bars)
	}

	// A value without an SST join gets dashes; a lesson with none, no
	// columns.
	ist := sstRestore("100M", 0)
	ist.Rejoin = sandbox.Recovery{}
	p = restorePage(o, []restoreResult{{useMemory: "100M", restores: []sandbox.Restore{ist}}, {useMemory: "2G", restores: []sandbox.Restore{sstRestore("2G", 80e6)}}})
	if got := strings.Join(p.Table.Rows[0], "|"); !strings.Contains(got, "|4.0|–|–|–|") {
		t.Errorf("no SST: %q", got)
	}
	p = restorePage(Options{Node: "node3"}, []restoreResult{{useMemory: "100M", restores: []sandbox.Restore{ist}}})
	if strings.Contains(strings.Join(p.Table.Header, "|"), "SST") || strings.Contains(p.Verdict, "SST") {
		t.Errorf("ist only: %q, %q", p.Table.Header, p.Verdict)
	}

	// --join sst: the restore's own join is the SST.
	own := sstRestore("2G", 80e6)
	own.Join, own.Rejoin = own.Rejoin, sandbox.Recovery{}
	p = restorePage(Options{Node: "node3", Joins: []string{"sst"}}, []restoreResult{{useMemory: "2G", restores: []sandbox.Restore{own}}})
	if !strings.Contains(p.What, "--join sst") || !strings.HasSuffix(strings.Join(p.Table.Rows[0], "|"), "|sst") || !strings.Contains(p.Verdict, "joined by SST") || strings.Contains(p.Verdict, "by IST") {
		t.Errorf("sst only: %q\n%q", p.Table.Rows, p.Verdict)
	}
}

// The phases file holds the SST join: its seconds from the node's start,
// its transfer's and the bytes it left.
func TestMeasureSST(t *testing.T) {
	m := measure(sstRestore("2G", 80e6), redoWritten{})
	if m.SSTSeconds != 21 || m.SSTTransferSeconds != 16 || m.SSTBytes != 80e6 || m.Transfer != "ist" || m.JoinSeconds != 3 {
		t.Errorf("measure: %+v", m)
	}
	if m := measure(sstRestore("2G", 80e6).WithPrepare(sandbox.Prepare{UseMemory: "100M"}), redoWritten{}); m.SSTSeconds != 21 {
		t.Errorf("the SST join kept with another value's prepare: %+v", m)
	}
}

// sstPhases are phases with an SST join to each restore: 100 MB/s over
// its transfer, 12 s of the join besides.
func sstPhases(size float64, reps int) restorePhases {
	f := phases(size, reps)
	for i := range f.Restores {
		f.Restores[i].SSTBytes, f.Restores[i].SSTTransferSeconds = int64(size), size/100e6
		f.Restores[i].SSTSeconds = size/100e6 + 12
	}
	return f
}

func TestRatesOfSST(t *testing.T) {
	r := ratesOf(sstPhases(1e9, 2))
	if r.SSTJoins != 4 || !near(r.SST, 100e6) || !near(r.SSTFixed, 12) || r.ISTJoins != 4 || !near(r.JoinSeconds, 30) {
		t.Errorf("rates: %+v", r)
	}
	if r := ratesOf(phases(1e9, 1)); r.SSTJoins != 0 || r.SST != 0 {
		t.Errorf("no SST: %+v", r)
	}
	// A restore whose own join was an SST is not an IST's cost J0.
	f := sstPhases(1e9, 1)
	f.Restores[0].Transfer, f.Restores[0].JoinSeconds = "sst", 500
	if r := ratesOf(f); r.ISTJoins != 1 || !near(r.JoinSeconds, 30) {
		t.Errorf("J0 of the IST joins only: %+v", r)
	}
}

func TestProjectSST(t *testing.T) {
	r := Rates{Backup: 100e6, Copy: 1000e6, StartSeconds: 10, JoinSeconds: 30, Join: 40e6, Apply: []ApplyRate{{UseMemory: "100M", BytesPerSec: 50e6}},
		SSTJoins: 1, SST: 200e6, SSTFixed: 15}
	const size, w = 1e12, 20e6
	p := r.Project(size, w, r.Apply[0])
	x := size / 200e6             // 5,000 s of copy
	wantJoin := 15 + x + w*x/20e6 // the writes of the copy caught up at rj − W
	if !p.HasSST || !near(p.SSTTransfer, x) || !near(p.SSTJoin, wantJoin) || !near(p.SSTTotal, p.Backup+p.Prepare+p.Copy+wantJoin) {
		t.Errorf("SST: %+v, want join %v", p, wantJoin)
	}
	if d := p.SSTDominant(); d.Name != "join by SST" {
		t.Errorf("dominant %s", d.Name)
	}
	// No writes: the fixed part and the copy.
	if q := r.Project(size, 0, r.Apply[0]); !near(q.SSTJoin, 15+x) {
		t.Errorf("no writes: %v", q.SSTJoin)
	}
	// A joiner no faster than the writes never catches up after the copy.
	if q := r.Project(size, 40e6, r.Apply[0]); !math.IsInf(q.SSTJoin, 1) || !math.IsInf(q.SSTTotal, 1) || sstDominantText(q) != "join by SST (never ends)" {
		t.Errorf("W = rj: %v", q.SSTJoin)
	}
	// A slow SST behind a fast backup: the SST's copy dominates; a fast
	// SST behind a slow prepare: the prepare does.
	r.SST = 20e6
	if d := r.Project(size, 1e3, ApplyRate{UseMemory: "2G", BytesPerSec: 1e12}).SSTDominant(); !strings.HasPrefix(d.Name, "join by SST") {
		t.Errorf("slow SST: %s", d.Name)
	}
	r.SST = 10e9
	if d := r.Project(size, 20e6, ApplyRate{UseMemory: "32M", BytesPerSec: 1e6}).SSTDominant(); d.Name != "prepare (redo apply)" {
		t.Errorf("slow prepare: %s", d.Name)
	}
	r.SSTJoins = 0
	if q := r.Project(size, w, r.Apply[0]); q.HasSST || q.SSTJoin != 0 {
		t.Errorf("no SST measured: %+v", q)
	}
}

// The projection section and verdict give the SST join and the rebuild
// then, with its dominant phase, when an SST was measured, and say it is
// not projected when none was.
func TestProjectionSectionSST(t *testing.T) {
	r := ratesOf(sstPhases(1e9, 1))
	s, v := projection(r, 10<<40, 30<<20, false)
	var names []string
	for _, row := range s.Table.Rows {
		names = append(names, row[0])
	}
	for _, want := range []string{"join if an SST (gcache < W × G)", "MTTR if the join is an SST", "dominant phase then", "rebuilt by SST alone (no backup)"} {
		if !strings.Contains(strings.Join(names, "|"), want) {
			t.Errorf("no row %q in %v", want, names)
		}
	}
	for _, want := range []string{"if the write-set cache cannot cover the gap (less than ", "the join is an SST: ", "dominates; a node rebuilt by SST alone"} {
		if !strings.Contains(v, want) {
			t.Errorf("verdict %q lacks %q", v, want)
		}
	}
	rates := ratesRows(r)
	if got := rates["SST rs (data sent over its stream's time)"]; got != "95.4 MiB/s (1.9 GiB in 20.0 s, 2 SST join(s))" {
		t.Errorf("SST rate %q", got)
	}
	if got := rates["SST join's rest F (constant)"]; got != "12.0 s" {
		t.Errorf("F %q", got)
	}
	rates = ratesRows(ratesOf(phases(1e9, 1)))
	if got := rates["SST rs"]; !strings.HasPrefix(got, "not measured (no restore here joined by SST") {
		t.Errorf("no SST rate: %q", got)
	}
	s, v = projection(ratesOf(phases(1e9, 1)), 10<<40, 30<<20, false)
	if strings.Contains(v, "SST") || !strings.Contains(strings.Join(s.Notes, "\n"), "SST not projected: no restore here joined by SST") {
		t.Errorf("no SST: %q\n%q", v, s.Notes)
	}
	if !strings.Contains(MTTRText, "SST join = F + X + W × X / (rj − W) where X = S / rs") {
		t.Error("the page's formula lacks the SST join")
	}
}

// The validation predicts the larger's SST join from the smaller's rates
// (the made-up joins leave out the catch-up the model adds: a few
// percent).
func TestValidationSST(t *testing.T) {
	s, missed, _ := validation(sstPhases(1e9, 1), sstPhases(4e9, 1))
	last := s.Table.Rows[len(s.Table.Rows)-1]
	if missed != "" || last[0] != "any" || last[1] != "join by SST" || last[2] != "52.0 s" {
		t.Errorf("rows %q, missed %q", s.Table.Rows, missed)
	}
	large := sstPhases(4e9, 1)
	for i := range large.Restores {
		large.Restores[i].SSTSeconds *= 2
	}
	if _, missed, _ := validation(sstPhases(1e9, 1), large); !strings.Contains(missed, "join by SST (-4") {
		t.Errorf("an SST off by half: %q", missed)
	}
}

// Where the donor's log bounds its stream, the SST's rate is over the
// stream, and the rest of the join (its fixed wait too) is F.
func TestSSTRateFromTheStream(t *testing.T) {
	r := sstRestore("2G", 80e6)
	r.Rejoin.StreamStart, r.Rejoin.StreamEnd = r.Rejoin.TransferStart.Add(10*time.Second), r.Rejoin.TransferStart.Add(14*time.Second)
	if got := sstRate([]sandbox.Recovery{r.Rejoin}); got != 20 {
		t.Errorf("page rate %v MB/s, want 80 MB over the 4 s stream", got)
	}
	m := measure(r, redoWritten{})
	if m.SSTStreamSeconds != 4 || m.SSTTransferSeconds != 16 {
		t.Errorf("measure: %+v", m)
	}
	rates := ratesOf(restorePhases{Restores: []measuredRestore{m}})
	if !near(rates.SST, 20e6) || !near(rates.SSTFixed, 17) {
		t.Errorf("rs %v, F %v; want 20 MB/s and the join's 21 s but the 4 s stream", rates.SST, rates.SSTFixed)
	}
}

// The redo the model's apply rate is of is what the prepare applied (its
// log's), not the backup's last_lsn − to_lsn, which a checkpoint made
// during a long backup shrinks.
func TestMeasureTakesThePreparesRedo(t *testing.T) {
	r := sstRestore("2G", 80e6)
	r.RedoBytes, r.PrepareRedoBytes = 74, 2e9
	if m := measure(r, redoWritten{}); m.RedoBytes != 2e9 {
		t.Errorf("redo %d, want the prepare's 2 GB", m.RedoBytes)
	}
	r.PrepareRedoBytes = 0
	if m := measure(r, redoWritten{}); m.RedoBytes != 74 {
		t.Errorf("redo %d, want the backup's when the log does not say", m.RedoBytes)
	}
}

// With --one-backup a repetition's prepares share one backup, copy and
// join, repeated in each value's row: the rates count that restore and
// its SST once, and every prepare's redo apply.
func TestRatesOfSharedBackup(t *testing.T) {
	f := sstPhases(1e9, 2)
	for i := range f.Restores {
		f.Restores[i].Backup = fmt.Sprintf("2026-12-08T00:00:0%dZ", i/2) // the two values of a repetition
	}
	r := ratesOf(f)
	if r.Restores != 2 || r.Prepares != 4 || r.SSTJoins != 2 || r.ISTJoins != 2 || !near(r.SSTBytes, 2e9) {
		t.Errorf("shared backups: %d restores, %d prepares, %d SST and %d IST joins, %v SST bytes; want 2, 4, 2, 2, 2e9", r.Restores, r.Prepares, r.SSTJoins, r.ISTJoins, r.SSTBytes)
	}
	// The rates are those of the rows repeated: the same as unshared.
	u := ratesOf(sstPhases(1e9, 2))
	if !near(r.SST, u.SST) || !near(r.Backup, u.Backup) || !near(r.Apply[0].BytesPerSec, u.Apply[0].BytesPerSec) || !near(r.Apply[1].BytesPerSec, u.Apply[1].BytesPerSec) {
		t.Errorf("shared %+v, unshared %+v", r, u)
	}
	if row := ratesRows(r)["restores"]; row != "2 (4 prepares of their backups)" {
		t.Errorf("restores row %q", row)
	}
	if _, _, secs := sstMeans(f); len(secs) != 2 {
		t.Errorf("SST joins of the validation %v, want one per backup", secs)
	}
}

func TestMeasureNamesItsBackup(t *testing.T) {
	r := sstRestore("2G", 80e6)
	a, b := measure(r, redoWritten{}), measure(r.WithPrepare(sandbox.Prepare{UseMemory: "100M"}), redoWritten{})
	if a.Backup == "" || a.Backup != b.Backup {
		t.Errorf("the prepares of one backup name it alike: %q and %q", a.Backup, b.Backup)
	}
}

// ratesRows are the rates table's values by their row's name.
func ratesRows(r Rates) map[string]string {
	rows := map[string]string{}
	for _, row := range ratesTable(r).Rows {
		rows[row[0]] = row[1]
	}
	return rows
}
