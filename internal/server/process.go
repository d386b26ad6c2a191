package server

import (
	"context"
	"sync"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// Process is the server process behind an endpoint that joinbench can
// reach on this machine (a sandbox's): the faults a run injects on a node
// (pause, restart) act on it.
type Process interface {
	// PID is the server's current process id.
	PID() int
	// Restart stops the server cleanly, waits down, starts it again and
	// waits until it serves (a cluster node: until it has rejoined).
	Restart(ctx context.Context, down time.Duration) error
}

// RestartStartTimeout bounds a Restart once its server is stopped: the
// time it is given to start again (a cluster node: to rejoin), which the
// end of a run does not cut short.
const RestartStartTimeout = sandbox.RestartStartTimeout

// sandboxProcess is one server of a named sandbox: the single server or a
// cluster node. The lock keeps PID from reading it half-way through a
// restart.
type sandboxProcess struct {
	mu sync.Mutex
	sb *sandbox.Named
	s  *sandbox.Server
}

func (p *sandboxProcess) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.s.PID
}

func (p *sandboxProcess) Restart(ctx context.Context, down time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sb.Restart(ctx, p.s, down)
}
