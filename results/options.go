package results

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// RunOptions are the settings a run was made with, stored in run.json under
// "options": the scenario selection, the load, the error policy, the schema
// the parameters draw from and what was recorded. They hold no connection
// details (those may hold a password). Keys are those of the run command's
// flags, snake_case; a key is never renamed.
type RunOptions struct {
	// Selection.
	Scenario   []string `json:"scenario"` // NAME=COUNT as given to --scenario, sorted
	Tags       []string `json:"tags"`
	All        bool     `json:"all"`
	ReadOnly   bool     `json:"read_only"`
	CorpusDirs []string `json:"corpus"` // --corpus folders
	NoBuiltin  bool     `json:"no_builtin"`

	// Load.
	Threads int      `json:"threads"`
	Events  int64    `json:"events"`
	Time    Duration `json:"time"` // 10s when neither events nor time was given
	Warmup  Duration `json:"warmup"`
	Rate    float64  `json:"rate"` // events/s over all threads; 0 = unpaced
	SkipTrx bool     `json:"skip_trx"`
	PsMode  PsMode   `json:"ps_mode"`
	// ExecPath is the path asked for; Run.ExecPaths says which one each
	// endpoint took.
	ExecPath ExecPath `json:"exec_path"`
	Seed     uint64   `json:"seed"`

	// Error policy.
	IgnoreErrors string   `json:"ignore_errors"` // retried server errors, comma-separated, or "none"
	Reconnect    int64    `json:"reconnect"`
	QueryTimeout Duration `json:"query_timeout"`

	// Schema the parameters draw from.
	Distribution string `json:"distribution"`
	Tables       int    `json:"tables"`
	TableSize    int64  `json:"table_size"`
	TableName    string `json:"table_name"`

	// What was recorded.
	Explain      Explain `json:"explain"`
	ExplainEvery int64   `json:"explain_every"`
	Checksum     bool    `json:"checksum"`
	// LiveResults wrote executions files as the run went (finished every
	// second), not a journal made into Parquet at the end (Options.Journal).
	LiveResults bool `json:"live_results"`
	// Work is how the work of executions was sampled: "sample" (at most
	// WorkBudget of each scenario's execution time, reads measured after
	// the measured phase), "during" (reads measured while the workload
	// runs) or "off".
	Work       string  `json:"work"`
	WorkBudget float64 `json:"work_budget"`

	// missing are the keys the run.json read did not hold (an older
	// joinbench); nil for options made in memory, which hold every key.
	missing map[string]bool
}

// PsMode is how statements are sent: prepared once per connection, or as
// text with values interpolated by the client.
type PsMode string

const (
	PsAuto    PsMode = "auto"
	PsDisable PsMode = "disable"
)

// ExecPath is how prepared statements are executed: on the socket by
// joinbench itself (package replay/internal/wire), or through the Go MySQL
// driver.
type ExecPath string

const (
	ExecDirect ExecPath = "direct"
	ExecDriver ExecPath = "driver"
)

// Explain is what plans were captured: EXPLAIN FORMAT=JSON (and tree),
// also EXPLAIN ANALYZE, or none.
type Explain string

const (
	ExplainJSON    Explain = "json"
	ExplainAnalyze Explain = "analyze"
	ExplainOff     Explain = "off"
)

// Work sampling modes (RunOptions.Work).
const (
	WorkSample = "sample"
	WorkDuring = "during"
	WorkOff    = "off"
)

// Duration is a time.Duration written as Go prints it ("1m30s").
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: %w", b, err)
	}
	*d = Duration(v)
	return nil
}

// Recorded reports whether key was recorded: false for a key that the
// run.json read did not hold, written by a joinbench older than the
// option. A value that was not recorded reads as its zero value.
func (o *RunOptions) Recorded(key string) bool { return !o.missing[key] }

// runOptionsFields lets RunOptions encode without its own methods.
type runOptionsFields RunOptions

// MarshalJSON writes the options as one object with its keys in
// alphabetical order, as run.json has always listed them, leaving out the
// keys that were not recorded, so that a run.json read and written again
// keeps its keys.
func (o RunOptions) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(runOptionsFields(o))
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage // encoding/json writes map keys sorted
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k := range o.missing {
		delete(m, k)
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads the options and notes which keys were missing.
func (o *RunOptions) UnmarshalJSON(b []byte) error {
	var f runOptionsFields
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(b, &present); err != nil {
		return err
	}
	*o = RunOptions(f)
	for _, k := range runOptionKeys {
		if _, ok := present[k]; !ok {
			if o.missing == nil {
				o.missing = map[string]bool{}
			}
			o.missing[k] = true
		}
	}
	return nil
}

// runOptionKeys are the JSON keys of RunOptions.
var runOptionKeys = func() []string {
	var keys []string
	t := reflect.TypeFor[RunOptions]()
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("json"); tag != "" {
			keys = append(keys, strings.Split(tag, ",")[0])
		}
	}
	return keys
}()

// Dataset is the data a run ran on, as the prepare that loaded it
// recorded it on the server (stored in run.json under "dataset"): the
// options that decide the tables and their rows, the rows of each table,
// and a digest of a sample of the rows as the run found them. Two runs
// whose datasets differ measured different data, whatever their servers.
type Dataset struct {
	Tables            int    `json:"tables"`
	TableName         string `json:"table_name"`
	TableSize         int64  `json:"table_size"`
	Seed              uint64 `json:"seed"`
	Distribution      string `json:"distribution"`
	Engine            string `json:"engine"`
	TableOptions      string `json:"table_options"`
	ClientIDs         bool   `json:"client_ids"`
	NoPrimaryKey      bool   `json:"no_primary_key"`
	IndexesDuringLoad bool   `json:"indexes_during_load"`
	// Schema digests the tables' CREATE TABLE statements, Generated the
	// rows the generator makes for them: a change of the built-in schema
	// or of the generator between versions changes them.
	Schema    string `json:"schema"`
	Generated string `json:"generated"`
	// Rows are the rows of each table when prepare finished.
	Rows map[string]int64 `json:"rows"`
	// Sample digests rows 1, the middle one and the last of the first main
	// tables and of the level tables when the run started ("" when not
	// taken): runs that wrote change it.
	Sample   string    `json:"sample,omitempty"`
	Prepared time.Time `json:"prepared"`
	// Contents digest every table's rows when the run started (each
	// table's count and a checksum over its rows: whole up to 200,000
	// rows, ranges of ids beyond; docs/work.md, "Data identity"): a
	// changed table cannot keep its digest. ContentsAtEnd are the same
	// when the run ended, for runs that wrote (write scenarios or
	// actions). Nil in runs made before they were taken.
	Contents      map[string]TableContents `json:"contents,omitempty"`
	ContentsAtEnd map[string]TableContents `json:"contents_at_end,omitempty"`
}

// TableContents is the digest of one table's rows (Dataset.Contents).
type TableContents struct {
	// Rows are the rows digested, Checksum the sum of their CRC32 in
	// decimal.
	Rows     int64  `json:"rows"`
	Checksum string `json:"checksum"`
	// Ranges is 0 when the whole table was digested, else the number of
	// ranges of ids that were (with every id outside 1..table size).
	Ranges int `json:"ranges,omitempty"`
	// Excluded are the columns left out of the checksum (FLOAT, DOUBLE),
	// comma-separated.
	Excluded string `json:"excluded,omitempty"`
	// Indexes digests the table's index definitions: an index dropped or
	// added changes it, the rows not.
	Indexes string `json:"indexes,omitempty"`
}
