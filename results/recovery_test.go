package results

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The timeline of a crash of one node of three and of all three, made
// from the actions rows and read back from recovery.parquet: nodes not
// killed count as writable and Synced throughout, and the k-th node to
// get there sets each time.
func TestRecoveryTimeline(t *testing.T) {
	d, err := Create(t.TempDir(), "r1", "host")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	s := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	crash := func(action int32, node string, killed, writable, synced int, method string) Action {
		return Action{Action: action, Step: 1, Kind: "crash", Node: node, Endpoint: node + ":3306", Start: s(killed),
			Recovery: &Recovery{ClusterSize: 3, KilledTime: s(killed), WritableTime: s(writable), SyncedTime: s(synced), Method: method}}
	}
	rows := []Action{
		crash(1, "node3", 10, 14, 15, "ist"),
		{Action: 2, Step: 1, Kind: "sql", Endpoint: "node1:3306"},
		crash(3, "node1", 30, 40, 41, "bootstrap"),
		crash(3, "node2", 30, 45, 50, "ist"),
		crash(3, "node3", 31, 46, 60, "sst"),
	}
	if err := d.WriteActions(rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecovery(d.Path(), func(err error) { t.Error(err) })
	if err != nil || len(got) != 4 {
		t.Fatalf("%d rows, %v", len(got), err)
	}
	one := got[0]
	if one.Action != 1 || one.RunID != "r1" || one.Crashed != 1 || one.ClusterSize != 3 || !one.CrashTime.Equal(s(10)) ||
		!one.FirstWritableTime.Equal(s(10)) || !one.MinimalHATime.Equal(s(10)) || !one.AllSyncedTime.Equal(s(15)) {
		t.Errorf("crash of one node: %+v", one)
	}
	for _, r := range got[1:] {
		if r.Action != 3 || r.Crashed != 3 || !r.CrashTime.Equal(s(30)) || !r.FirstWritableTime.Equal(s(40)) ||
			!r.MinimalHATime.Equal(s(50)) || !r.AllSyncedTime.Equal(s(60)) {
			t.Errorf("crash of all: %+v", r)
		}
	}
	if got[3].Node != "node3" || got[3].Method != "sst" || !got[3].KilledTime.Equal(s(31)) {
		t.Errorf("node3 in the crash of all: %+v", got[3])
	}
	if got := got[1].Seconds(got[1].AllSyncedTime); got != 30 {
		t.Errorf("all Synced %v s after the crash, want 30", got)
	}

	// A node that never got Synced leaves the times it did not reach null.
	rows = []Action{crash(1, "node1", 10, 12, 13, "bootstrap"), crash(1, "node2", 10, 14, 0, "")}
	rows[1].Recovery.SyncedTime = time.Time{}
	rows[0].Recovery.ClusterSize, rows[1].Recovery.ClusterSize = 2, 2
	if got := RecoveryTimeline(rows); !got[0].MinimalHATime.IsZero() || !got[0].AllSyncedTime.IsZero() || !got[0].FirstWritableTime.Equal(s(12)) {
		t.Errorf("one node not Synced: %+v", got[0])
	}

	// Without a crash there is no file.
	d2, err := Create(t.TempDir(), "r2", "host")
	if err != nil {
		t.Fatal(err)
	}
	if err := d2.WriteActions(rows[:0]); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d2.Path(), RecoveryFile)); !os.IsNotExist(err) {
		t.Errorf("recovery.parquet without a crash: %v", err)
	}
}
