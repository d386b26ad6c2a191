package results

import (
	"strings"
	"testing"
	"time"
)

// TestScanExecutionFields: a scan of some fields gives them as a scan of
// whole rows does, and the other fields zero.
func TestScanExecutionFields(t *testing.T) {
	d, err := CreateWithOptions(t.TempDir(), "r1", "h", Options{FileAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	want := sampleExecutions(0, 500)
	writerWith(t, d, want)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	fields := SelectExecutionFields("Endpoint", "IntendedStart", "LatencyNs")
	var got []Execution
	if _, err := ScanExecutionFields(d.Path(), func(err error) { t.Error(err) }, fields, func(e *Execution) error {
		got = append(got, *e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		w := Execution{Endpoint: want[i].Endpoint, IntendedStart: want[i].IntendedStart, LatencyNs: want[i].LatencyNs}
		want[i] = w
	}
	sameRows(t, got, want)
}

// TestSelectUnknownField: a name that is not a field of Execution is a
// mistake found at once.
func TestSelectUnknownField(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "no field latency_ns") {
			t.Errorf("recovered %v", r)
		}
	}()
	SelectExecutionFields("latency_ns")
}
