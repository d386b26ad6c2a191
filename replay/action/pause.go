package action

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"
)

// pauseKind stops the node's server with SIGSTOP for a while: a frozen
// node.
var pauseKind = &Kind{
	Name:    "pause",
	Syntax:  "pause DURATION",
	Doc:     "sends the node's server SIGSTOP, and SIGCONT after DURATION (a frozen node)",
	Process: true,
	Parse: func(a Args) (Job, error) {
		d, err := a.Duration("how long the server stays stopped", false)
		if err != nil {
			return nil, err
		}
		if err := a.NoText(); err != nil {
			return nil, err
		}
		return pauseJob{stopped: d}, nil
	},
}

type pauseJob struct{ stopped time.Duration }

func (j pauseJob) What(Target) string { return fmt.Sprintf("SIGSTOP for %s", j.stopped) }

// Do stops the server process with SIGSTOP, then lets it go on with
// SIGCONT, also when the run ends first: a stopped node answers nothing,
// and the other nodes of a cluster see it as slow, not gone, until their
// suspect timeout.
func (j pauseJob) Do(ctx context.Context, at Site, _ *Outcome) error {
	pid := at.Process.PID()
	if pid <= 0 {
		return errors.New("the server is not running")
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("SIGSTOP pid %d: %w", pid, err)
	}
	werr := wait(ctx, j.stopped)
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		return fmt.Errorf("SIGCONT pid %d: %w", pid, err)
	}
	return werr
}
