package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/parquet-go/parquet-go"
)

// ActionsFile holds a run's actions (joinbench run --action): one row per
// action and endpoint it ran on.
const ActionsFile = "actions.parquet"

// Outcomes of an action.
const (
	ActionOK        = "ok"        // it did what it was asked
	ActionFailed    = "failed"    // it returned an error (the run went on)
	ActionCancelled = "cancelled" // the run ended while it ran: it was stopped, its fault undone
	ActionSkipped   = "skipped"   // the run ended before its offset, or a rolling change failed on an earlier node
	// ActionUnstopped: the run ended while it ran and it did not stop in
	// time (a hung server that answers not even KILL QUERY): the run
	// ended without it, and what it was doing may outlast the run.
	ActionUnstopped = "unstopped"
)

// Action is one row of actions.parquet: an action of the run (a statement,
// a chunked DML, an external command, a fault on a node) on one endpoint.
// An action on every node (a rolling RSU change, a crash of the whole
// cluster) has one row per node, numbered by Step.
type Action struct {
	RunID string `parquet:"run_id,dict"`
	// Action numbers the run's actions from 1, in the order given.
	Action int32 `parquet:"action"`
	Step   int32 `parquet:"step"` // 1, or the node's turn or number on "all"
	// Spec is the action as given to --action.
	Spec string `parquet:"spec"`
	// Kind is the action's kind, as --action names it (the list: docs/workflow.md).
	Kind     string `parquet:"kind,dict"`
	Endpoint string `parquet:"endpoint,dict"`
	Node     string `parquet:"node,dict,optional"` // the sandbox node name, when the endpoint is one
	// What is the statement, command or fault, as executed.
	What string `parquet:"what"`
	// Planned is the measured phase's start plus the action's offset (its
	// first successful execution's end, for a run whose actions are timed
	// from the workload: replay.Options.ActionsFromWorkload).
	Planned time.Time `parquet:"planned_time,timestamp(nanosecond)"`
	Start   time.Time `parquet:"start_time,timestamp(nanosecond)"`
	End     time.Time `parquet:"end_time,timestamp(nanosecond)"`
	Outcome string    `parquet:"outcome,dict"` // ok, failed, cancelled, skipped
	// ErrorCode is the server error number of a failed statement, the exit
	// status of a failed command, 0 otherwise.
	ErrorCode    int32  `parquet:"error_code"`
	ErrorMessage string `parquet:"error_message,optional" stats:"none"`
	Rows         int64  `parquet:"rows"`   // rows affected by a statement or chunked DML
	Chunks       int32  `parquet:"chunks"` // transactions of a chunked DML
	// Output is what an external command printed (its last 64 KiB), or
	// what a slow or crash action measured and did, in words.
	Output string `parquet:"output,optional"`
	// WritableTime and SyncedTime are, for a node brought back after a
	// crash, when it first accepted writes again and when it was first
	// Synced; StateTransfer how it came back: bootstrap, ist, sst or none.
	// Null for other actions.
	WritableTime  time.Time `parquet:"writable_time,timestamp(nanosecond),optional"`
	SyncedTime    time.Time `parquet:"synced_time,timestamp(nanosecond),optional"`
	StateTransfer string    `parquet:"state_transfer,dict,optional"`
	// Recovery, for a node a crash action killed, is what its recovery
	// row (recovery.parquet) says of it; not a column of actions.parquet.
	Recovery *Recovery `parquet:"-" json:"-"`
}

// WriteActions writes actions.parquet with rows, replacing it atomically,
// and recovery.parquet from the rows of crash actions. Actions are few, so the run rewrites the whole file when one ends.
func (d *RunDir) WriteActions(rows []Action) error {
	rows = append([]Action(nil), rows...)
	for i := range rows {
		if rows[i].RunID == "" {
			rows[i].RunID = d.runID
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Action != rows[j].Action {
			return rows[i].Action < rows[j].Action
		}
		return rows[i].Step < rows[j].Step
	})
	var buf bytesBuffer
	w := parquet.NewGenericWriter[Action](&buf, d.writerOptions()...)
	if _, err := w.Write(rows); err != nil {
		return fmt.Errorf("%s: %w", ActionsFile, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%s: %w", ActionsFile, err)
	}
	if err := writeAtomic(filepath.Join(d.path, ActionsFile), buf.b); err != nil {
		return err
	}
	if rec := RecoveryTimeline(rows); len(rec) > 0 {
		return d.writeRecovery(rec)
	}
	return nil
}

// ReadActions reads a run's actions.parquet. A run without actions has
// none and gives no error; an unreadable file is warned about.
func ReadActions(dir string, warn Warner) ([]Action, error) {
	p := filepath.Join(dir, ActionsFile)
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var out []Action
	_, err := scanFile(p, warn, allColumns[Action](), func(a *Action) error {
		out = append(out, *a)
		return nil
	})
	return out, err
}
