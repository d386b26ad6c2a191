// Package replay owns the run engine: workers, events, pacing, error
// policy, timing, EXPLAIN capture, live progress and summaries, and how
// statements reach the server (the driver, or the direct protocol path of
// replay/internal/wire on blocking sockets, with every fallback logged and
// recorded).
//
// A run is made from typed Options through one entry point, Session:
// NewSession checks the options and compiles the chosen scenarios, Open
// opens the endpoints, Run records the run in its results folder
// (results) and replays it. Run(ctx, Config) is the engine itself,
// on endpoints already open and any Sink; tests and benchmarks drive it
// directly. Every wait of a run on a server is bounded, whatever the
// server does (stop.go), and a run never waits on one longer than a few
// seconds after its time is up or it is interrupted.
//
// Actions during a run (a schema change, a chunked DML, a fault on a node)
// are package action's, one descriptor per kind; the engine gives them its
// endpoints (the nodes behind them, when they are a proxy's) and the
// sink's actions file (actions.go) and measures what each cost
// (stalls.go). The live progress lines count the rows of each second of
// the report's timeline (progress.go); every server's status is sampled
// on its own, directly (sampling.go).
//
// A run's live state (live.go) is handed, when Config.Watch asks for it,
// to a reader outside the engine (a metrics endpoint), which reads
// snapshots of what the workers and the writer count anyway.
//
// It must not parse scenario files itself (corpus does), create tables
// (ddl does: a caller that needs them prepares them between Open and Run),
// nor read results back (analysis/report does).
package replay
