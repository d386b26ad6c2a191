package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
)

func TestSaturation(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	quiet := &results.Run{RunID: "q", Machine: &results.MachineLoad{Cores: 2, CPUPressure: f(0.35), LoadAverage: 9, Steal: f(0.01)}}
	busy := &results.Run{RunID: "b", Machine: &results.MachineLoad{Cores: 2, CPUPressure: f(0.94), LoadAverage: 14}}
	noPSI := &results.Run{RunID: "n", Machine: &results.MachineLoad{Cores: 2, LoadAverage: 5}}
	stolen := &results.Run{RunID: "s", Machine: &results.MachineLoad{Cores: 8, CPUPressure: f(0.2), Steal: f(0.15)}}
	old := &results.Run{RunID: "o"}
	if err := CheckSaturation([]*results.Run{quiet, old, nil}, []*results.Run{quiet}); err != nil {
		t.Errorf("quiet machine: %v (PSI decides where the kernel has it, not the load average)", err)
	}
	err := CheckSaturation([]*results.Run{busy}, []*results.Run{noPSI, stolen})
	var sat *Saturated
	if !errors.As(err, &sat) || len(sat.Runs) != 3 {
		t.Fatalf("%v", err)
	}
	for i, want := range []string{"base b: a task waited for a CPU 94% of the time", "candidate n: load average 5.0 on 2 cores",
		"candidate s: 15% of the CPU time stolen"} {
		if !strings.HasPrefix(sat.Runs[i], want) {
			t.Errorf("%q, want %q", sat.Runs[i], want)
		}
	}
	if !strings.Contains(err.Error(), "saturated machine") {
		t.Error(err)
	}
}
