// Package action owns the actions of a run (run --action): what happens at
// an offset into the measured phase, on one endpoint, on every endpoint in
// turn (Kind.Rolling) or on every endpoint at once (Kind.AllAtOnce), while
// the workload goes on (a schema change, a chunked DELETE, an external
// tool, a fault on a sandbox node: paused, slowed, restarted, crashed).
//
// Each kind of action is one Kind value in a file of its own (sql.go,
// rsu.go, ...): its name, the syntax of its arguments and their parser,
// how long it may take to stop, and the Job that does it. A job notes what
// it did in an Outcome; the runner alone makes outcomes rows, so a kind
// knows nothing of the results' format. The kinds list
// (kinds.go) is the registry that the parser, the help text and the docs
// check read. Parse reads the grammar every kind shares,
//
//	OFFSET@TARGET: KIND [ARGS][: TEXT]
//
// and hands ARGS and TEXT to the kind's parser. Resolve binds each action
// to the run's endpoints; Start runs them at their offsets and Stop ends
// them with the run, each within a bound, and returns the rows of
// actions.parquet (results.Action).
//
// What a run gives its actions is Env: its endpoints' pools, a bound on
// how long a server is given to answer KILL QUERY, where to print and
// where to record rows. It must not import the engine (replay), read
// results back, or measure what an action cost (analysis/stall does).
package action
