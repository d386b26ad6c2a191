package experiment

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/action"
	"github.com/joinbench/joinbench/results"
)

// env is one lesson's invocation: the target, the options, and the runs
// it made.
type env struct {
	tgt    *server.Target
	o      Options
	lesson string
	stamp  string
	runs   []string
	// cut are what the step the lesson was interrupted in said beyond
	// the interruption itself (a node left down, a backup kept): the
	// page's notes, since the step's error is not the command's.
	cut []string
	// redo is what restore measured of the cluster's redo around each
	// restore, by the restore's backup start (mttr.go).
	redo map[time.Time]redoWritten
}

// interrupted says whether the lesson was stopped (Ctrl-C, SIGTERM)
// during the step that returned err: the lesson then stops, the step is
// not judged, and what err says beyond the interruption is kept for the
// page.
func (e *env) interrupted(ctx context.Context, err error) bool {
	if ctx.Err() == nil {
		return false
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		e.cut = append(e.cut, err.Error())
	}
	return true
}

// workload is what a run's threads execute.
type workload struct {
	scenarios    []string // NAME=COUNT
	distribution string   // of the parameters that declare none
}

// logf says what the lesson is doing.
func (e *env) logf(format string, args ...any) { fmt.Fprintf(e.o.Log, format+"\n", args...) }

// run makes one run of w for d with actions (offsets from the measured
// phase's start), and returns its outcome; its folder is remembered for
// the page.
func (e *env) run(ctx context.Context, name string, w workload, d time.Duration, actions ...string) (*replay.Outcome, error) {
	return e.runOn(ctx, e.tgt.Endpoints, e.tgt.Nodes, name, w, d, actions...)
}

// runOn is run with its clients on endpoints only (nodes: the servers
// behind them when they are a proxy's).
func (e *env) runOn(ctx context.Context, endpoints, nodes []server.Endpoint, name string, w workload, d time.Duration, actions ...string) (*replay.Outcome, error) {
	out, err := e.runFrom(ctx, endpoints, nodes, nil, name, w, d, actions...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// runFrom is runOn with origin (when not nil) set at the workload's
// measured start, for the lesson to time its own steps from; it returns
// the outcome of a run that ended with an error too.
func (e *env) runFrom(ctx context.Context, endpoints, nodes []server.Endpoint, origin *action.Origin, name string, w workload, d time.Duration, actions ...string) (*replay.Outcome, error) {
	o := replay.Options{
		RunOptions: results.RunOptions{
			Scenario: w.scenarios, Threads: e.o.Threads, Time: results.Duration(d), Warmup: results.Duration(e.o.Warmup),
			PsMode: results.PsAuto, ExecPath: results.ExecDirect, Seed: e.o.Seed, IgnoreErrors: "1213,1205",
			Distribution: w.distribution, Tables: 1, TableSize: e.o.TableSize, TableName: "main",
			Explain: results.ExplainOff, Work: results.WorkOff,
		},
		// Timed from the workload's first success: a late start on a busy
		// machine must shift the actions, not eat the quiet stretch before
		// the first (report.ActionWindows starts it after that success).
		Actions: actions, ActionsFromWorkload: true, Origin: origin, Out: e.o.Out, RunID: fmt.Sprintf("%s-%s-%s", e.lesson, e.stamp, name), ToolVersion: e.o.ToolVersion,
		ReportInterval: time.Second, Log: e.o.Log, Progress: e.o.Progress,
	}
	e.logf("run %s: %s for %s%s", name, w.scenarios, d, actionList(actions))
	s, err := replay.NewSession(o)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if err := s.Open(ctx, endpoints, nodes); err != nil {
		return nil, err
	}
	out, err := s.Run(ctx)
	if out != nil {
		e.runs = append(e.runs, filepath.Clean(out.Dir))
	}
	return out, err
}

func actionList(actions []string) string {
	s := ""
	for _, a := range actions {
		s += fmt.Sprintf(", action %q", a)
	}
	return s
}

// prepare loads main1 (and the level tables) with TableSize rows unless
// the server already holds that dataset, then waits until every node has
// applied it.
func (e *env) prepare(ctx context.Context) error {
	db, err := e.tgt.Endpoints[0].OpenDB()
	if err != nil {
		return err
	}
	defer db.Close()
	if d, err := load.ReadDataset(ctx, db); err == nil && d != nil &&
		d.Tables == 1 && d.TableName == "main" && d.TableSize == e.o.TableSize && d.Seed == e.o.Seed {
		return nil
	}
	e.logf("preparing main1 with %d rows", e.o.TableSize)
	dist, err := ddl.ParseDistribution("uniform")
	if err != nil {
		return err
	}
	_, err = load.Prepare(ctx, db, load.PrepareOptions{
		Schema:  ddl.SchemaOptions{Tables: 1, TableName: "main"},
		Gen:     ddl.GenOptions{Seed: e.o.Seed, TableSize: e.o.TableSize, Distribution: dist},
		Threads: 2, ChunkSize: 10000, Recreate: true,
	})
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	return e.synced(ctx, "main1")
}

// exec runs statements on the first endpoint, then waits until every
// node has applied them (table is read through each with
// wsrep_sync_wait): a run would otherwise start in the stall of that
// apply.
func (e *env) exec(ctx context.Context, table string, stmts ...string) error {
	db, err := e.tgt.Endpoints[0].OpenDB()
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return e.synced(ctx, table)
}

// synced reads table through every node once they have applied what was
// written before (a no-op wait on a single server).
func (e *env) synced(ctx context.Context, table string) error {
	if e.tgt.Sandbox == nil || e.tgt.Sandbox.Nodes < 2 {
		return nil
	}
	for _, ep := range e.tgt.Endpoints {
		db, err := ep.OpenDB()
		if err != nil {
			return err
		}
		err = syncWait(ctx, db, table)
		db.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", ep.Name, err)
		}
	}
	return nil
}

func syncWait(ctx context.Context, db *sql.DB, table string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET SESSION wsrep_sync_wait = 1"); err != nil {
		return err
	}
	var n int64
	return conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM `"+table+"`").Scan(&n)
}

// setGlobal sets a global variable on every node and returns what sets it
// back to each node's value before.
func (e *env) setGlobal(ctx context.Context, name, value string) (func(), error) {
	var undo []func()
	restore := func() {
		for _, u := range undo {
			u()
		}
	}
	for _, ep := range e.tgt.Endpoints {
		db, err := ep.OpenDB()
		if err != nil {
			restore()
			return nil, err
		}
		var old string
		if err := db.QueryRowContext(ctx, "SELECT @@GLOBAL."+name).Scan(&old); err != nil {
			db.Close()
			restore()
			return nil, fmt.Errorf("%s: %w", ep.Name, err)
		}
		// Noted before it is set: a lesson that is killed leaves the
		// next command on the server the value to set back.
		done, err := ep.Ledger().Add(ledger.Entry{Kind: sandbox.ChangeGlobal, Node: ep.Node,
			What: fmt.Sprintf("%s: %s = %s for experiment %s, was %s", ep.Name, name, value, e.lesson, old),
			Undo: map[string]string{"name": name, "value": old}})
		if err != nil {
			db.Close()
			restore()
			return nil, err
		}
		if _, err := db.ExecContext(ctx, "SET GLOBAL "+name+" = "+value); err != nil {
			db.Close()
			_ = done()
			restore()
			return nil, fmt.Errorf("%s: SET GLOBAL %s: %w", ep.Name, name, err)
		}
		undo = append(undo, func() {
			// The lesson's context may be over: setting back must not be.
			if _, err := db.ExecContext(context.Background(), sandbox.SetGlobalSQL(name, old)); err == nil {
				_ = done()
			}
			db.Close()
		})
	}
	return restore, nil
}
