package action

import (
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/throttle"
)

// What a slow action's output says of the node's own rate while limited
// is read back from it; an output without a limit set has none.
func TestSlowRatioReadsTheOutput(t *testing.T) {
	now := time.Now()
	res := throttle.Result{Before: throttle.Usage{CPU: 2}, Target: throttle.Usage{CPU: 1.6}, During: throttle.Usage{CPU: 1.57},
		Limited: now, Lifted: now.Add(10 * time.Second)}
	out := slowOutput(slowJob{fraction: 0.2, resource: throttle.CPU, hold: 10 * time.Second}, res)
	if r, ok := SlowRatio(out); !ok || r < 0.784 || r > 0.786 {
		t.Errorf("ratio %v %v from:\n%s", r, ok, out)
	}
	if r, ok := SlowRatio(slowOutput(slowJob{fraction: 0.2, resource: throttle.CPU}, throttle.Result{})); ok {
		t.Errorf("a limit never set read as %v", r)
	}
}
