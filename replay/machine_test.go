package replay

import (
	"os"
	"testing"
	"time"
)

// The machine's load over a stretch of time: shares between 0 and 1, and
// PSI wherever the kernel has it.
func TestMachineLoad(t *testing.T) {
	var m machineLoad
	if m.since() != nil {
		t.Fatal("a load without a start")
	}
	m.mark()
	time.Sleep(50 * time.Millisecond)
	ml := m.since()
	if ml == nil || ml.Cores < 1 {
		t.Fatalf("%+v", ml)
	}
	_, err := os.Stat("/proc/pressure/cpu")
	if (err == nil) != (ml.CPUPressure != nil) {
		t.Errorf("PSI file present %v, pressure %v", err == nil, ml.CPUPressure)
	}
	for _, v := range []*float64{ml.CPUPressure, ml.Steal} {
		if v != nil && (*v < 0 || *v > 1) {
			t.Errorf("share %v", *v)
		}
	}
}
