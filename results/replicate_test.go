package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSetReplicate(t *testing.T) {
	d, err := Create(t.TempDir(), "s-base-01", "h")
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{RunID: "s-base-01", Start: time.Unix(10, 0).UTC(), End: time.Unix(20, 0).UTC(), Options: &RunOptions{Seed: uint64(1) << 60, Threads: 2}}
	if err := d.WriteRun(r); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	rep := Replicate{Series: "s", Side: SideBase, Round: 1, Order: 2, Rounds: 5}
	if err := SetReplicate(d.Path(), rep); err != nil {
		t.Fatal(err)
	}
	got := ReadRunInfo(d.Path(), func(err error) { t.Error(err) })
	if got == nil || got.Replicate == nil || *got.Replicate != rep || got.RunID != "s-base-01" || !got.Start.Equal(r.Start) {
		t.Fatalf("run.json after SetReplicate: %+v", got)
	}
	b, _ := os.ReadFile(filepath.Join(d.Path(), RunFile))
	if !strings.Contains(string(b), "1152921504606846976") {
		t.Errorf("a large option value changed:\n%s", b)
	}
	if err := SetReplicate(filepath.Join(t.TempDir(), "missing"), rep); err == nil {
		t.Error("SetReplicate of a missing run folder: no error")
	}
}
