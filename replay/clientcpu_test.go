package replay

import (
	"runtime"
	"testing"
	"time"
)

// TestClientCPUCountsWork sees CPU burnt after markStart, and nothing
// before it.
func TestClientCPUCountsWork(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process CPU time on this platform")
	}
	var c clientCPU
	if _, ok := c.since(); ok {
		t.Fatal("since() before markStart must say it cannot tell")
	}
	c.markStart()
	x := 0
	for start := time.Now(); time.Since(start) < 30*time.Millisecond; {
		x++
	}
	used, ok := c.since()
	if !ok || used <= 0 {
		t.Errorf("used %s (ok %v) after spinning for 30 ms (%d)", used, ok, x)
	}
	var s Summary
	s.Executions = 4
	s.setClientCPU(2 * time.Millisecond)
	if s.ClientCPUSeconds != 0.002 || s.ClientCPUPerQueryUs != 500 {
		t.Errorf("%+v: want 0.002 s, 500 µs per execution", s)
	}
}
