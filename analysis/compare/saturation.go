package compare

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// Saturated: some runs of the comparison were measured on a client machine
// whose CPUs were saturated (results.MachineLoad.Saturation): their
// latencies hold the scheduler's queueing, and a verdict may be wrong in
// either direction.
type Saturated struct {
	// Runs are "side run-id: why", one per saturated run.
	Runs []string
}

func (w *Saturated) Error() string {
	return fmt.Sprintf("verdicts were taken on a saturated machine (%s): latencies then hold the CPU scheduler's queueing as much as the servers' work, "+
		"and a server throttled by the machine has been measured faster than it was; compare again on a quieter machine", strings.Join(w.Runs, "; "))
}

// CheckSaturation looks at the machine load each run recorded (run.json
// "machine"): a *Saturated naming the saturated runs, nil when none was
// (or none recorded it).
func CheckSaturation(base, cand []*results.Run) error {
	var runs []string
	for _, side := range []struct {
		name string
		runs []*results.Run
	}{{results.SideBase, base}, {results.SideCandidate, cand}} {
		for _, r := range side.runs {
			if r == nil {
				continue
			}
			if why := r.Machine.Saturation(); why != "" {
				runs = append(runs, fmt.Sprintf("%s %s: %s", side.name, r.RunID, why))
			}
		}
	}
	if len(runs) == 0 {
		return nil
	}
	return &Saturated{Runs: runs}
}
