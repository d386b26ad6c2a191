package action

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/joinbench/joinbench/results"
)

// row is the results row of one target of a, before it runs.
func (r *Runner) row(a *Action, i int, tg Target, planned time.Time) results.Action {
	return results.Action{Action: a.Number, Step: int32(i + 1), Spec: a.Text, Kind: a.Kind.Name,
		Endpoint: r.env.Endpoints[tg.Endpoint].Name, Node: tg.Node, What: a.Job.What(tg), Planned: planned,
		Outcome: results.ActionSkipped}
}

// note puts on a target's row what its job noted of what it did.
func (o Outcome) note(row *results.Action) {
	if o.What != "" {
		row.What = o.What
	}
	if !o.Started.IsZero() {
		row.Start = o.Started
	}
	row.Rows, row.Chunks, row.Output = o.Rows, o.Chunks, o.Output
	if rec := o.Recovery; rec != nil {
		row.WritableTime, row.SyncedTime, row.StateTransfer = rec.Writable, rec.Synced, rec.Transfer
		row.Recovery = &results.Recovery{ClusterSize: int32(rec.ClusterSize), KilledTime: rec.Killed, StartedTime: rec.Started,
			WritableTime: rec.Writable, SyncedTime: rec.Synced, Method: rec.Transfer, Position: rec.Position,
			TransferStartTime: rec.TransferStart, TransferEndTime: rec.TransferEnd,
			TransferWritesets: rec.TransferWritesets, TransferBytes: rec.TransferBytes}
	}
}

// started notes that a target of an action is being acted on.
func (r *Runner) started(row results.Action, kind *Kind) *running {
	a := &running{row: row, kind: kind}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running[a] = true
	return a
}

// ended notes that it ended.
func (r *Runner) ended(a *running) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.running, a)
}

// record keeps a row, prints how it ended when it ran, and records every
// row again. After Stop gave up on the actions still running, it does
// nothing: they were recorded as unstopped.
func (r *Runner) record(row results.Action, ran bool) {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return
	}
	if ran {
		r.printEnd(row)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.rows = append(r.rows, row)
	r.mu.Unlock()
	r.write()
}

// printEnd prints how an action's step ended.
func (r *Runner) printEnd(row results.Action) {
	msg := fmt.Sprintf("action %d on %s: %s %s after %.1fs", row.Action, where(row),
		row.Kind, row.Outcome, row.End.Sub(row.Start).Seconds())
	if row.Rows > 0 || row.Chunks > 0 {
		msg += fmt.Sprintf(", %d rows", row.Rows)
	}
	if row.Chunks > 0 {
		msg += fmt.Sprintf(" in %d chunks", row.Chunks)
	}
	if row.ErrorMessage != "" {
		msg += ": " + clipText(row.ErrorMessage, 300)
	}
	r.printf("%s", msg)
}

// close records the actions still running as unstopped within bound, and
// returns every row; rows recorded after it are dropped.
func (r *Runner) close(bound time.Duration) []results.Action {
	r.mu.Lock()
	r.closed = true
	var left []results.Action
	for a := range r.running {
		row := a.row
		row.End, row.Outcome = time.Now(), results.ActionUnstopped
		row.ErrorMessage = unstopped(bound)
		left = append(left, row)
	}
	r.rows = append(r.rows, left...)
	rows := sortedRows(r.rows)
	r.mu.Unlock()
	for _, row := range left {
		r.printf("action %d on %s: %s %s", row.Action, where(row), row.Kind, row.ErrorMessage)
	}
	if len(left) > 0 {
		r.write()
	}
	return rows
}

// write hands the rows recorded so far to Env.Record. The writes are
// serialized and each takes its snapshot once it holds the turn, so the
// last write is always of every row: two actions ending together must not
// leave the older snapshot on disk.
func (r *Runner) write() {
	if r.env.Record == nil {
		return
	}
	r.writing.Lock()
	defer r.writing.Unlock()
	r.mu.Lock()
	rows := sortedRows(r.rows)
	r.mu.Unlock()
	if err := r.env.Record(rows); err != nil {
		r.env.logf("write actions: %v", err)
	}
}

// sortedRows is a copy of rows in action and step order.
func sortedRows(rows []results.Action) []results.Action {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b results.Action) int {
		return cmp.Or(cmp.Compare(a.Action, b.Action), cmp.Compare(a.Step, b.Step))
	})
	return out
}
