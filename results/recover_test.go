package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// killedJournal is a journal of frames of 114 rows each, as a killed
// client leaves it, and its frames.
func killedJournal(t *testing.T, d *RunDir, frames int) (string, [][]Execution) {
	t.Helper()
	var fs [][]Execution
	for i := range frames {
		fs = append(fs, sampleExecutions(i*114, 114))
	}
	return writeJournal(t, d, "executions-h-0.rows", fs...), fs
}

// frameOffsets are the byte offsets of the frames of a journal written
// by this build, and of its end.
func frameOffsets(t *testing.T, path string) []int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := int64(len(executionJournal.magic()))
	offs := []int64{at}
	for at < int64(len(b)) {
		fh, ok := parseHead(b[at:])
		if !ok {
			t.Fatalf("no frame at byte %d", at)
		}
		at += frameHeader + int64(fh.length)
		offs = append(offs, at)
	}
	return offs
}

func appendTo(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

func flipByte(t *testing.T, path string, at int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := make([]byte, 1)
	if _, err := f.ReadAt(c, at); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{c[0] ^ 0x5a}, at); err != nil {
		t.Fatal(err)
	}
}

func recoverWarned(t *testing.T, dir string) (Recovered, []error) {
	t.Helper()
	var warnings []error
	rec, err := Recover(dir, func(err error) { warnings = append(warnings, err) })
	if err != nil {
		t.Fatalf("Recover: %v", err)
	}
	return rec, warnings
}

func concat(frames ...[]Execution) []Execution {
	var out []Execution
	for _, f := range frames {
		out = append(out, f...)
	}
	return out
}

// TestRecoverZeroTail: zeros after the last frame, what a crash leaves on
// several file systems, cost no row: every frame is converted, the
// zeros are warned of, and the journal, which holds nothing more, is
// removed. So for a journal of the first format too (testdata/format-1).
func TestRecoverZeroTail(t *testing.T) {
	t.Run("journal", func(t *testing.T) {
		d := journalDir(t, Options{})
		path, frames := killedJournal(t, d, 38)
		appendTo(t, path, make([]byte, 8))
		rec, warnings := recoverWarned(t, d.Path())
		if len(rec.Files) != 1 || rec.Rows != 38*114 || rec.Lost != 0 {
			t.Fatalf("Recover: %+v", rec)
		}
		sameRows(t, readAll[Execution](t, rec.Files), concat(frames...))
		if len(warnings) != 1 || !errors.Is(warnings[0], errTornFrame) || !strings.Contains(warnings[0].Error(), "zeros") {
			t.Errorf("warnings = %v, want one of the zeros at the end", warnings)
		}
		if left := listFiles(t, d.Path(), "executions-h-0.rows*"); len(left) != 0 {
			t.Errorf("left %v", left)
		}
	})
	t.Run("first-format", func(t *testing.T) {
		dir := t.TempDir()
		b, err := os.ReadFile(filepath.Join(formatDir, "executions-h-1.rows"))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "executions-h-1.rows")
		if err := os.WriteFile(path, append(b, make([]byte, 8)...), 0o644); err != nil {
			t.Fatal(err)
		}
		rec, warnings := recoverWarned(t, dir)
		if len(rec.Files) != 1 || rec.Rows != 250 {
			t.Fatalf("Recover: %+v, warnings %v", rec, warnings)
		}
		sameRows(t, readAll[Execution](t, rec.Files), formatRows())
		if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "zeros") {
			t.Errorf("warnings = %v", warnings)
		}
	})
}

// TestRecoverSkipsDamagedFrames: a byte flipped in the middle of a
// journal costs the frame it is in, and no other: the reader finds the
// next frame after a damaged one, whether the damage is in a frame's rows
// or in its header. The warning says how many rows were lost where, and
// the journal, not converted whole, is kept.
func TestRecoverSkipsDamagedFrames(t *testing.T) {
	for _, c := range []struct {
		name string
		at   func(offs []int64) int64 // the byte to flip
	}{
		{"rows", func(offs []int64) int64 { return offs[18] + frameHeader + 100 }},
		{"length", func(offs []int64) int64 { return offs[18] + 5 }},
		{"sync", func(offs []int64) int64 { return offs[18] }},
		{"first", func(offs []int64) int64 { return offs[18] + 9 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := journalDir(t, Options{})
			path, frames := killedJournal(t, d, 38)
			offs := frameOffsets(t, path)
			flipByte(t, path, c.at(offs))
			rec, warnings := recoverWarned(t, d.Path())
			if len(rec.Files) != 1 || rec.Rows != 37*114 || rec.Lost != 114 || rec.LostUncounted {
				t.Fatalf("Recover: %+v, warnings %v", rec, warnings)
			}
			sameRows(t, readAll[Execution](t, rec.Files), concat(append(frames[:18:18], frames[19:]...)...))
			where := fmt.Sprintf("bytes %d-%d damaged: 114 rows lost", offs[18], offs[19])
			if len(warnings) != 1 || !errors.Is(warnings[0], errDamagedFrame) || !strings.Contains(warnings[0].Error(), where) {
				t.Errorf("warnings = %v, want one saying %q", warnings, where)
			}
			if len(rec.Damaged) != 1 || rec.Damaged[0] != path+damagedSuffix {
				t.Errorf("journals kept: %v", rec.Damaged)
			}
			if _, err := os.Stat(path + damagedSuffix); err != nil {
				t.Errorf("the damaged journal is not kept: %v", err)
			}
			if j := listFiles(t, d.Path(), JournalGlob); len(j) != 0 {
				t.Errorf("journals left to recover again: %v", j)
			}
		})
	}
}

// TestRecoverCountsDamageToTheEnd: damage from the middle of a frame to
// the end of the journal loses that frame's rows, counted from its
// header, and those after it, which no header counts: the warning says
// so, and the journal is kept.
func TestRecoverCountsDamageToTheEnd(t *testing.T) {
	d := journalDir(t, Options{})
	path, frames := killedJournal(t, d, 10)
	offs := frameOffsets(t, path)
	if err := os.Truncate(path, offs[7]+frameHeader+50); err != nil {
		t.Fatal(err)
	}
	appendTo(t, path, []byte("garbage that is no frame"))
	rec, warnings := recoverWarned(t, d.Path())
	if rec.Rows != 7*114 || rec.Lost != 114 || rec.LostUncounted {
		t.Errorf("Recover: %+v", rec)
	}
	sameRows(t, readAll[Execution](t, rec.Files), concat(frames[:7]...))
	if len(warnings) != 1 || !errors.Is(warnings[0], errTornFrame) || !strings.Contains(warnings[0].Error(), "114 rows lost") {
		t.Errorf("warnings = %v", warnings)
	}
	if len(rec.Damaged) != 1 {
		t.Errorf("journals kept: %v", rec.Damaged)
	}
}

// TestRecoverAtOnce: two Recovers of one folder at once (two reports
// started together on a killed run) both find every row in the folder
// when they return, and neither fails.
func TestRecoverAtOnce(t *testing.T) {
	for round := range 4 {
		d := journalDir(t, Options{})
		var want int
		for i := range 4 {
			rows := sampleExecutions(i*20000, 20000)
			writeJournal(t, d, fmt.Sprintf("executions-h-%d.rows", i), rows[:10000], rows[10000:])
			want += len(rows)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		counts := make([]int, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, errs[i] = Recover(d.Path(), nil); errs[i] != nil {
					return
				}
				n, err := CountExecutions(d.Path(), "h")
				counts[i], errs[i] = int(n), err
			}()
		}
		wg.Wait()
		for i := range 2 {
			if errs[i] != nil || counts[i] != want {
				t.Errorf("round %d, Recover %d: %d rows readable after it, want %d (%v)", round, i, counts[i], want, errs[i])
			}
		}
	}
}
