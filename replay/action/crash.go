package action

import (
	"context"
	"fmt"
	"time"

	"github.com/joinbench/joinbench/internal/server"
)

// crashKind kills the node's server with SIGKILL, or every node at once on
// "all", and recovers as an operator does: a node restarts on its
// recovered position and rejoins; a whole cluster bootstraps again from
// the node with the highest seqno, then the others join. Each row notes
// when its node was writable and Synced again and how it came back.
var crashKind = &Kind{
	Name:      "crash",
	Syntax:    "crash [DURATION]",
	Doc:       "kills the node's server with SIGKILL, waits DURATION and recovers as an operator does; on `all`, every node at once. Each node's row says when it was writable and Synced again and whether it came back by bootstrap, IST or SST. See [Crash and recovery](#crash-and-recovery)",
	Note:      "on all: every node at once",
	Process:   true,
	AllAtOnce: true,
	StopBound: server.CrashRecoveryTimeout,
	Parse: func(a Args) (Job, error) {
		d, err := a.Duration("how long the server stays down", true)
		if err != nil {
			return nil, err
		}
		if err := a.NoText(); err != nil {
			return nil, err
		}
		return crashJob{down: d}, nil
	},
}

type crashJob struct{ down time.Duration }

func (j crashJob) What(Target) string {
	return fmt.Sprintf("SIGKILL, recover after %s", j.down)
}

// Do kills the one server and brings it back. Starting it again undoes
// the fault, so the end of the run waits for it.
func (j crashJob) Do(ctx context.Context, at Site, out *Outcome) error {
	recs, err := at.Process.Crash(ctx, j.down, false)
	for _, rec := range recs {
		noteRecovery(out, rec)
	}
	return err
}

// DoAll kills every server of the sandbox at once and recovers the whole.
func (j crashJob) DoAll(ctx context.Context, at []Site, outs []*Outcome) error {
	recs, err := at[0].Process.Crash(ctx, j.down, true)
	for _, rec := range recs {
		for i, site := range at {
			if site.Node == rec.Node {
				noteRecovery(outs[i], rec)
			}
		}
	}
	return err
}

// noteRecovery notes in a node's outcome when it was killed, and how it
// came back.
func noteRecovery(out *Outcome, rec server.Recovery) {
	out.Started = rec.Killed
	out.Output = rec.Notes
	out.Recovery = &rec
}
