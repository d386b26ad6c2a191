package replay

import (
	"context"
	"time"

	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// ActionSink is a Sink that also records actions (ResultsSink is one).
type ActionSink interface {
	// WriteActions replaces the run's action rows with rows.
	WriteActions(rows []results.Action) error
}

func (s runDirSink) WriteActions(rows []results.Action) error { return s.d.WriteActions(rows) }

// startActions starts the run's actions (package action) timed from the
// measured phase's start (or from its first successful execution, with
// ActionsFromWorkload), and stopped at its deadline; nil without any.
func (e *engine) startActions(ctx context.Context, start, deadline time.Time) *action.Runner {
	if len(e.cfg.Actions) == 0 {
		return nil
	}
	var origin *action.Origin
	if e.cfg.ActionsFromWorkload {
		origin = e.origin
	}
	return action.StartFrom(ctx, e.actionEnv(), e.cfg.Actions, start, origin, deadline)
}

// actionEnv is what the engine gives actions: its endpoints' pools (its
// nodes' behind a proxy), the bound of a server's answer to KILL QUERY,
// the live output (or the log, without one) and the sink's actions file.
func (e *engine) actionEnv() action.Env {
	out := e.cfg.Progress
	if out == nil {
		out = e.cfg.Log
	}
	env := action.Env{
		AbortAfter: e.stop.abortAfter,
		Printf:     (&lockedWriter{w: out}).Printf,
		Logf:       e.log.Printf,
	}
	for _, ep := range e.cfg.Endpoints {
		env.Endpoints = append(env.Endpoints, action.Endpoint{Name: ep.Name, DB: ep.DB})
	}
	if len(e.cfg.Nodes) > 0 {
		env.Endpoints = env.Endpoints[:0]
		for _, n := range e.cfg.Nodes {
			env.Endpoints = append(env.Endpoints, action.Endpoint{Name: n.Name, DB: n.DB})
		}
	}
	if s, ok := e.cfg.Sink.(ActionSink); ok {
		env.Record = s.WriteActions
	}
	return env
}
