package server

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// Process is the server process behind an endpoint that joinbench can
// reach on this machine (a sandbox's): the faults a run injects on a node
// (pause, slow, restart, crash) act on it.
type Process interface {
	// PID is the server's current process id.
	PID() int
	// DataDir is the server's data directory.
	DataDir() string
	// Restart stops the server cleanly, waits down, starts it again and
	// waits until it serves (a cluster node: until it has rejoined).
	Restart(ctx context.Context, down time.Duration) error
	// Crash kills the server with SIGKILL (with all, every server of its
	// sandbox at once), waits down and recovers as an operator does,
	// returning how each server came back (sandbox.Named.Crash).
	Crash(ctx context.Context, down time.Duration, all bool) ([]Recovery, error)
	// Ledger is where a change to the server is noted before it is made
	// (package ledger): the sandbox's folder.
	Ledger() ledger.Ledger
	// Running reports whether the server runs.
	Running() bool
	// RestartWith restarts the server with extra options after its own,
	// for one command (a setting it reads only when it starts), noted in
	// the ledger first so that a killed command's is undone by the next
	// (sandbox.Named.RestartWith); restore restarts it with its options
	// before. A cluster's node is refused: its options are its my.cnf's.
	RestartWith(ctx context.Context, extra []string, why string) (restore func(context.Context) error, err error)
}

// Recovery is how a server came back after a crash.
type Recovery = sandbox.Recovery

// RestartStartTimeout bounds a Restart once its server is stopped: the
// time it is given to start again (a cluster node: to rejoin), which the
// end of a run does not cut short.
const RestartStartTimeout = sandbox.RestartStartTimeout

// CrashRecoveryTimeout bounds a Crash's recovery, which the end of a run
// does not cut short either.
const CrashRecoveryTimeout = sandbox.CrashRecoveryTimeout

// sandboxProcess is one server of a named sandbox: the single server or a
// cluster node. The lock, one for every server of the sandbox, keeps PID
// from reading a process id half-way through a restart or a crash, which
// may start every node again.
type sandboxProcess struct {
	mu *sync.Mutex
	sb *sandbox.Named
	s  *sandbox.Server
}

func (p *sandboxProcess) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.s.PID
}

func (p *sandboxProcess) DataDir() string { return p.s.DataDir }

func (p *sandboxProcess) Ledger() ledger.Ledger { return p.sb.Ledger() }

func (p *sandboxProcess) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.s.Running()
}

func (p *sandboxProcess) Crash(ctx context.Context, down time.Duration, all bool) ([]Recovery, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Another crash or restart held the sandbox until now: a run that
	// ended meanwhile must not kill servers it will not wait for.
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("not crashed: the run ended while another fault on the sandbox was being recovered (%w)", err)
	}
	return p.sb.Crash(ctx, p.s, down, all)
}

func (p *sandboxProcess) Restart(ctx context.Context, down time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("not restarted: the run ended while another fault on the sandbox was being recovered (%w)", err)
	}
	return p.sb.Restart(ctx, p.s, down)
}

func (p *sandboxProcess) RestartWith(ctx context.Context, extra []string, why string) (func(context.Context) error, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	restore, err := p.sb.RestartWith(ctx, p.s, extra, why)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) error {
		p.mu.Lock()
		defer p.mu.Unlock()
		return restore(ctx)
	}, nil
}
