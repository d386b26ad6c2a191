package action

import (
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/results"
)

// What a job notes becomes its row: the runner's start stays unless the
// fault began later, the description unless the job expanded it, and a
// crash's recovery fills the row's recovery columns and its recovery row.
func TestOutcomeNote(t *testing.T) {
	start := time.Unix(1700000000, 0).UTC()
	killed, writable := start.Add(time.Second), start.Add(9*time.Second)
	for _, tc := range []struct {
		name  string
		out   Outcome
		check func(t *testing.T, row results.Action)
	}{
		{"nothing noted", Outcome{}, func(t *testing.T, row results.Action) {
			if row.Start != start || row.What != "planned" || row.Recovery != nil || !row.WritableTime.IsZero() {
				t.Errorf("row changed: %+v", row)
			}
		}},
		{"counts and output", Outcome{What: "sh -c true", Rows: 5, Chunks: 2, Output: "done"}, func(t *testing.T, row results.Action) {
			if row.What != "sh -c true" || row.Rows != 5 || row.Chunks != 2 || row.Output != "done" {
				t.Errorf("row %+v", row)
			}
		}},
		{"recovery", Outcome{Started: killed, Recovery: &server.Recovery{Killed: killed, Writable: writable, Transfer: "ist", ClusterSize: 3}},
			func(t *testing.T, row results.Action) {
				if row.Start != killed || row.WritableTime != writable || row.StateTransfer != "ist" {
					t.Errorf("row %+v", row)
				}
				if r := row.Recovery; r == nil || r.ClusterSize != 3 || r.KilledTime != killed || r.Method != "ist" {
					t.Errorf("recovery row %+v", r)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			row := results.Action{Start: start, What: "planned"}
			tc.out.note(&row)
			tc.check(t, row)
		})
	}
}
