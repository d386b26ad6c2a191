package results

import (
	"time"

	"github.com/joinbench/joinbench/internal/flavor"
)

// The row types of the Parquet files are their schema: a column is its
// field's parquet tag, and nothing else names it (schema.go derives the
// rest). A column added to Execution or Status is also added to its
// journal's codec (journal_codec.go; TestJournalCarriesEveryColumn names a
// column it misses). stats:"none" writes a column without min/max
// statistics.

// Execution is one row of executions-<host>-<n>.parquet: one statement
// executed once.
type Execution struct {
	RunID        string    `parquet:"run_id,dict"`
	Scenario     string    `parquet:"scenario,dict"`
	TemplateHash string    `parquet:"template_hash,dict" stats:"none"` // hash of the scenario file's statement text
	Endpoint     string    `parquet:"endpoint,dict"`                   // host:port of the server, never a password
	ClientHost   string    `parquet:"client_host,dict"`
	Thread       int32     `parquet:"thread"`
	Event        int64     `parquet:"event"`         // the event (transaction) number within the thread
	StatementSeq int32     `parquet:"statement_seq"` // the statement's position within the event
	Start        time.Time `parquet:"start_time,timestamp(nanosecond)"`
	// IntendedStart is when a paced (--rate) run meant to start this
	// statement; latency of paced runs is measured from it. Null when unpaced.
	IntendedStart *time.Time `parquet:"intended_start,optional,timestamp(nanosecond)"`
	LatencyNs     int64      `parquet:"latency_ns"`
	Rows          int64      `parquet:"rows"`       // rows returned or affected
	ErrorCode     int32      `parquet:"error_code"` // 0 when the statement succeeded
	SQLState      string     `parquet:"sql_state,dict,optional" stats:"none"`
	ErrorMessage  string     `parquet:"error_message,optional" stats:"none"`
	Retries       int32      `parquet:"retries"` // deadlock / lock-wait retries before this outcome
	PlanHash      string     `parquet:"plan_hash,dict,optional" stats:"none"`
	Params        []string   `parquet:"params,list" stats:"none"` // bound values as text, in placeholder order; tables as their name
	Checksum      string     `parquet:"result_checksum,optional" stats:"none"`
	// Segment is the part (1..N) of a run split over N clients that
	// executed the statement; 0 when the run was not split.
	Segment int32 `parquet:"segment"`
	// CutAtEnd marks a statement still running when the run (or a round)
	// ended and stopped it: LatencyNs is how long it had run, a lower bound
	// of its latency, not a latency (see cut.go). False (null) otherwise,
	// and in files written before such statements were recorded.
	CutAtEnd bool `parquet:"cut_at_end,optional"`
	// CommitErrorCode is the server error of the COMMIT that ended the
	// statement's event, on the event's last statement only: 1213 is a
	// certification conflict on Galera (metrics.IsConflict). 0 (null) when the
	// COMMIT succeeded, on the other statements of an event, and in files
	// written before it was recorded.
	CommitErrorCode int32 `parquet:"commit_error_code,optional"`
	// Node is the server that served the statement's connection, as it
	// names itself when the connection opens: wsrep_node_name on a Galera
	// node, else hostname:port. Behind a proxy it tells the nodes apart.
	// Null when the server was not asked, and in files written before.
	Node string `parquet:"node,dict,optional"`
	// Warnings is the server's warning count for the statement (what SHOW
	// WARNINGS would list), as its reply carried it: counted only on the
	// direct exec path (Run.WarningsCounted says whether a run counted
	// them). 0 (null) when it had none, when not counted, and in files
	// written before.
	Warnings int32 `parquet:"warnings,optional"`
}

// Plan is one row of plans.parquet: a distinct plan of a scenario.
type Plan struct {
	RunID     string    `parquet:"run_id,dict"`
	Scenario  string    `parquet:"scenario,dict"`
	Endpoint  string    `parquet:"endpoint,dict"`
	PlanHash  string    `parquet:"plan_hash" stats:"none"` // hash of the plan's shape: access types, join order, keys
	Format    string    `parquet:"format,dict"`            // json, tree, traditional, analyze
	Explain   string    `parquet:"explain" stats:"none"`
	Query     string    `parquet:"query" stats:"none"` // the statement explained, with its values
	FirstSeen time.Time `parquet:"first_seen,timestamp(nanosecond)"`
}

// DiskVariable is the status variable of a server's InnoDB tablespaces'
// size on disk, in bytes (a gauge), sampled in runs with actions: what a
// table copy adds while it runs.
const DiskVariable = "innodb_tablespace_bytes"

// Status is one row of status-<host>-<n>.parquet: the change of one server counter
// over one report interval.
type Status struct {
	RunID    string    `parquet:"run_id,dict"`
	Endpoint string    `parquet:"endpoint,dict"`
	Time     time.Time `parquet:"time,timestamp(nanosecond)"` // end of the interval
	Interval float64   `parquet:"interval_seconds"`
	Variable string    `parquet:"variable,dict"`
	Delta    int64     `parquet:"delta"`
	// Gauge marks a variable that is a level, not a counter (Galera's
	// receive and send queues): Delta is then its value at the end of the
	// interval. False (null) in files written before gauges were sampled.
	Gauge bool `parquet:"gauge,optional"`
	// Value is the text of a state rather than a number (a Galera node's
	// wsrep_local_state_comment, wsrep_cluster_status, wsrep_ready), on a
	// gauge row: Delta is then its number where it has one (see
	// replay/status), and "unreachable" is written when the node did not
	// answer the sample. Null for counters, and in files written before.
	Value string `parquet:"value,dict,optional"`
}

// Run is run.json.
type Run struct {
	// FormatVersion is run.json's format (RunFormatVersion when written;
	// 0, read as 1, in files written before it): a reader refuses a later
	// one (CheckRunFile).
	FormatVersion int               `json:"format_version"`
	RunID         string            `json:"run_id"`
	ToolVersion   string            `json:"tool_version"`
	ServerVersion string            `json:"server_version"`
	Flavor        flavor.Name       `json:"flavor"` // mysql, mariadb, percona, tidb
	Endpoints     []string          `json:"endpoints"`
	ClientHost    string            `json:"client_host"`
	ServerVars    map[string]string `json:"server_variables"`
	Options       *RunOptions       `json:"options"`
	Scenarios     []string          `json:"scenarios"`
	// WriteScenarios are the scenarios of the run with a statement that is
	// not a plain read: one that changes rows or the schema, locks, stores
	// what it reads or changes the session (what run --read-only
	// refuses). Result checksums of two runs are only comparable when
	// neither wrote: writes from concurrent threads interleave differently
	// in every run.
	WriteScenarios []string `json:"write_scenarios,omitempty"`
	// WriteKinds are, for each of WriteScenarios, the kinds of its
	// statements that are not plain reads, each once, in statement order:
	// dml, ddl, locking-read, select-into, set, call, lock-tables,
	// transaction, other or unparsed (absent from runs made before it).
	WriteKinds map[string][]string `json:"write_kinds,omitempty"`
	// ScenarioSQL is, per scenario, its statement text as its file holds
	// it (placeholders, not values), for a report to show: as many
	// scenarios as fit in MaxScenarioSQL (see RecordScenarioSQL).
	ScenarioSQL map[string]string `json:"scenario_sql,omitempty"`
	Start       time.Time         `json:"start"`
	End         time.Time         `json:"end"`
	Interrupted bool              `json:"interrupted"`
	Executions  int64             `json:"executions"`
	Errors      int64             `json:"errors"`
	// CutAtEnd counts the statements still running when the run ended,
	// recorded as such (Execution.CutAtEnd) and counted in neither
	// Executions nor Errors.
	CutAtEnd int64 `json:"cut_at_end,omitempty"`
	// Unanswered counts the calls (statements, BEGIN, COMMIT, ...) that
	// had no reply, even to KILL QUERY, and whose connection was cut: the
	// server stopped answering.
	Unanswered int64 `json:"unanswered,omitempty"`
	// Segments is the number of clients a split run (--segment) had, 0
	// when not split; Segment is which of them wrote this file (0 in the
	// run-level run.json, 1..Segments in segment-<i>.json).
	Segments int `json:"segments,omitempty"`
	Segment  int `json:"segment,omitempty"`
	// ExecPaths say, per endpoint in the order of Endpoints, how its
	// workers executed statements; written at the end of the run.
	ExecPaths []EndpointPath `json:"exec_paths,omitempty"`
	// WarningsCounted: every statement of the run went by the direct exec
	// path, whose replies carry the warning count, so that Execution.
	// Warnings is 0 only for a statement without warnings. False when some
	// went through the driver, which does not give the count, and in runs
	// written before.
	WarningsCounted bool `json:"warnings_counted,omitempty"`
	// ClientCPUSeconds is the CPU time this client process used over the
	// measured phase, and ClientCPUPerQueryUs that per execution: each run
	// states what it cost the client, so that a client-bound run shows.
	ClientCPUSeconds    float64 `json:"client_cpu_seconds,omitempty"`
	ClientCPUPerQueryUs float64 `json:"client_cpu_us_per_query,omitempty"`
	// Actions are the run's --action specs, in the order given; what each
	// did is in actions.parquet.
	Actions []string `json:"actions,omitempty"`
	// Nodes are the servers behind Endpoints by name, when they are
	// known: a sandbox's nodes, or Galera nodes (wsrep_node_name). When
	// traffic went to a proxy (--dsn of a proxy with --sandbox), they are
	// the nodes behind it, whose status was read from each directly and on
	// which the actions ran.
	Nodes []Node `json:"nodes,omitempty"`
	// Dataset is the data the run ran on, as prepare recorded it; nil
	// when the server holds no record (tables made otherwise, an older
	// prepare, scenarios on tables of the user's own).
	Dataset *Dataset `json:"dataset,omitempty"`
	// Replicate is set on the rounds of a repeated comparison (joinbench
	// ab): which side and round this run is.
	Replicate *Replicate `json:"replicate,omitempty"`
	// Work is what the run sampled of its executions' work
	// (work-<host>-<n>.parquet); nil when it sampled none (--work off, or a
	// run made before work was sampled).
	Work *WorkSampling `json:"work,omitempty"`
	// Machine is how busy the client machine's CPUs were over the
	// measured phase (machine.go); nil when unknown.
	Machine *MachineLoad `json:"machine,omitempty"`
	// Error says why the run failed, when it did (a results file that
	// could not be written, every scenario disabled): its files may then
	// hold fewer executions than Executions counts.
	Error string `json:"error,omitempty"`
}

// Node is a server of a run by name.
type Node struct {
	Name     string `json:"name"`     // node2, or its wsrep_node_name
	Endpoint string `json:"endpoint"` // host:port, as status rows and actions name it
}

// NodeName is the name of the node at endpoint, or endpoint itself when
// the run names none.
func (r *Run) NodeName(endpoint string) string {
	if r != nil {
		for _, n := range r.Nodes {
			if n.Endpoint == endpoint && n.Name != "" {
				return n.Name
			}
		}
	}
	return endpoint
}

// EndpointPath is how the workers of one endpoint executed their
// statements: the path they took, not the one asked for (RunOptions.ExecPath).
type EndpointPath struct {
	Endpoint string `json:"endpoint"`
	// Path is "direct" when every worker connection sent its prepared
	// statements on the socket, "driver" when none did, "mixed" when some
	// fell back to the driver, "none" when no worker connected.
	Path string `json:"path"`
	// Reasons say why connections used the driver, each once: the options
	// (exec_path driver, ps_mode disable) or what the direct path could not
	// handle (a fallback, also logged during the run).
	Reasons           []string `json:"reasons,omitempty"`
	DirectConnections int64    `json:"direct_connections"`
	DriverConnections int64    `json:"driver_connections"`
	// DriverStatements counts statements of direct connections that went
	// through the driver all the same (an argument the direct path does not
	// send); Reasons says which.
	DriverStatements int64 `json:"driver_statements,omitempty"`
}

// WarningsCounted reports whether a run whose endpoints executed as paths
// say counted every statement's warnings: each went by the direct path
// (some statement at least), none through the driver.
func WarningsCounted(paths []EndpointPath) bool {
	direct := false
	for _, p := range paths {
		switch {
		case p.DriverConnections > 0 || p.DriverStatements > 0:
			return false
		case p.DirectConnections > 0:
			direct = true
		}
	}
	return direct
}

// Paths of EndpointPath.
const (
	PathDirect = "direct"
	PathDriver = "driver"
	PathMixed  = "mixed"
	PathNone   = "none"
)
