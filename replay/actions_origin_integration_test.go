package replay_test

import (
	"context"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/action"
)

// TestActionsTimedFromTheWorkload: with ActionsFromWorkload an action is
// planned from the end of a successful execution of the measured phase,
// never from the phase's start: a workload whose first statement takes
// a while (as one starting late on a busy machine) shifts the action.
func TestActionsTimedFromTheWorkload(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_actions_origin")
	db := open(t, dsn, false)
	specs, err := action.ParseAll([]string{"0s@1: sql: SELECT 1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	actions, err := action.Resolve(specs, []server.Endpoint{{Name: "test", DSN: dsn}})
	if err != nil {
		t.Fatal(err)
	}
	q := "SELECT SLEEP(0.3)"
	sc := &replay.Scenario{Name: "slow", Count: 1, Queries: []string{q},
		NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }}
	sink := &actionSink{}
	res, err := replay.Run(context.Background(), replay.Config{
		RunID: "t", Threads: 1, Duration: 1500 * time.Millisecond, SkipTrx: true, Prepared: true,
		Endpoints: []replay.Endpoint{{Name: "test", DB: db}}, Scenarios: []*replay.Scenario{sc}, Sink: sink,
		Actions: actions, ActionsFromWorkload: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Actions) != 1 || res.Actions[0].Outcome != "ok" {
		t.Fatalf("actions %+v", res.Actions)
	}
	planned := res.Actions[0].Planned
	found := false
	for _, x := range sink.rows {
		if x.ErrorCode == 0 && x.Start.Add(time.Duration(x.LatencyNs)).Equal(planned) {
			found = true
		}
	}
	if !found {
		t.Errorf("the action was planned at %s, the end of no successful execution (run start %s)", planned, res.Start)
	}
}
