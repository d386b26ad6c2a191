package results

import (
	"fmt"
	"strings"
)

// MachineLoad is how busy the client machine's CPUs were over a run's
// measured phase (run.json "machine"). On a saturated machine latencies
// hold the scheduler's queueing as much as the servers' work, and a
// comparison's verdicts may be wrong: a candidate server throttled by a
// duty cycle (stopped 10 or 25 ms of every 100) was measured 1.4-2x faster
// than its base at a load of 5-6 per core, because the scheduler favours
// a process that was stopped, and slower as it should on a quiet machine.
type MachineLoad struct {
	Cores int `json:"cores"`
	// CPUPressure is the share of the phase's wall time during which at
	// least one runnable task waited for a CPU (Linux PSI,
	// /proc/pressure/cpu "some"); nil where the kernel has no PSI.
	CPUPressure *float64 `json:"cpu_pressure,omitempty"`
	// LoadAverage is the 1-minute load average at the end of the phase.
	LoadAverage float64 `json:"load_average"`
	// Steal is the share of the CPU time of the phase the hypervisor gave
	// to other guests (/proc/stat); nil when unknown.
	Steal *float64 `json:"steal,omitempty"`
}

// Saturation thresholds. A benchmark keeps some task runnable most of the
// time on its own, so pressure alone says little until the queue is almost
// never empty: at 90% a runnable task waited for a CPU nine tenths of the
// time. Without PSI, two runnable tasks per core on average (the load
// average) is the same state. Steal of a tenth of the CPU time is a host
// taking the guest's CPUs away in slices, which looks to the run like a
// server stopped in a duty cycle.
const (
	SaturatedPressure    = 0.90
	SaturatedLoadPerCore = 2.0
	SaturatedSteal       = 0.10
)

// Saturation says why the machine was saturated, "" when it was not (or
// nothing is known).
func (m *MachineLoad) Saturation() string {
	if m == nil {
		return ""
	}
	var why []string
	switch {
	case m.CPUPressure != nil && *m.CPUPressure >= SaturatedPressure:
		why = append(why, fmt.Sprintf("a task waited for a CPU %.0f%% of the time (PSI)", *m.CPUPressure*100))
	case m.CPUPressure == nil && m.Cores > 0 && m.LoadAverage/float64(m.Cores) >= SaturatedLoadPerCore:
		why = append(why, fmt.Sprintf("load average %.1f on %d cores", m.LoadAverage, m.Cores))
	}
	if m.Steal != nil && *m.Steal >= SaturatedSteal {
		why = append(why, fmt.Sprintf("%.0f%% of the CPU time stolen by the hypervisor", *m.Steal*100))
	}
	return strings.Join(why, ", ")
}
