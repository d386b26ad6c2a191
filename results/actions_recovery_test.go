package results

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// A crash's row keeps when its node was writable and Synced again and how
// it came back; other rows leave those columns null, not a zero time.
func TestActionRecoveryColumns(t *testing.T) {
	d, err := Create(t.TempDir(), "r1", "host")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	rows := []Action{
		{RunID: "r1", Action: 1, Step: 1, Kind: "crash", WritableTime: at, SyncedTime: at.Add(time.Second), StateTransfer: "ist"},
		{RunID: "r1", Action: 2, Step: 1, Kind: "sql"},
	}
	if err := d.WriteActions(rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadActions(d.Path(), nil)
	if err != nil || len(got) != 2 {
		t.Fatalf("%v, %v", got, err)
	}
	if !got[0].WritableTime.Equal(at) || !got[0].SyncedTime.Equal(at.Add(time.Second)) || got[0].StateTransfer != "ist" {
		t.Errorf("crash row read back as %+v", got[0])
	}
	if !got[1].WritableTime.IsZero() || got[1].StateTransfer != "" {
		t.Errorf("sql row read back as %+v", got[1])
	}
	type nullable struct {
		Writable *time.Time `parquet:"writable_time,timestamp(nanosecond),optional"`
	}
	raw, err := parquet.ReadFile[nullable](filepath.Join(d.Path(), ActionsFile))
	if err != nil || len(raw) != 2 || raw[0].Writable == nil || raw[1].Writable != nil {
		t.Errorf("writable_time as written: %+v, %v; want a time, then null", raw, err)
	}
}
