package action

import (
	"context"
	"fmt"
	"time"

	"github.com/joinbench/joinbench/internal/server"
)

// restartKind stops the node's server cleanly and starts it again after a
// while, waiting until it serves (a cluster node: until it has rejoined).
// Starting it again undoes the fault, so the end of the run waits for it.
var restartKind = &Kind{
	Name:      "restart",
	Syntax:    "restart [DURATION]",
	Doc:       "stops the node's server cleanly, starts it again after DURATION and waits until it has rejoined (Synced)",
	Process:   true,
	StopBound: server.RestartStartTimeout,
	Parse: func(a Args) (Job, error) {
		d, err := a.Duration("how long the server stays down", true)
		if err != nil {
			return nil, err
		}
		if err := a.NoText(); err != nil {
			return nil, err
		}
		return restartJob{down: d}, nil
	},
}

type restartJob struct{ down time.Duration }

func (j restartJob) What(Target) string { return fmt.Sprintf("stop, start after %s", j.down) }

func (j restartJob) Do(ctx context.Context, at Site, _ *Outcome) error {
	return at.Process.Restart(ctx, j.down)
}
