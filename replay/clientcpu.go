package replay

import (
	"sync"
	"time"
)

// clientCPU measures the CPU time this process spends over a run's
// measured phase (workers, the writer, the reporter, the garbage
// collector: everything the client costs), so that every run states its
// own overhead per query. A client that needs more CPU per query than the
// server's latency leaves room for becomes the bottleneck, and its figures
// are the client's, not the server's.
type clientCPU struct {
	mu    sync.Mutex // markStart runs on a timer when there is a warmup
	start time.Duration
	ok    bool
}

// markStart samples the process's CPU time at the start of the measured
// phase.
func (c *clientCPU) markStart() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start, c.ok = processCPU()
}

// since returns the CPU time used since markStart, and false where the
// platform cannot tell.
func (c *clientCPU) since() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ok {
		return 0, false
	}
	now, ok := processCPU()
	if !ok || now < c.start {
		return 0, false
	}
	return now - c.start, true
}
