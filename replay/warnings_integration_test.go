package replay_test

import (
	"context"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// The direct path records each statement's warning count from its reply,
// and the run says it counted them; through the driver, which does not
// give the count, none is recorded and the run says it did not count.
func TestWarningsRecorded(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_warnings")
	// Two warnings (two truncated conversions), and none.
	warned, clean := "SELECT CAST('1x' AS SIGNED) + CAST('2y' AS SIGNED) AS v", "SELECT 1 AS v"
	for _, p := range paths {
		db := open(t, dsn, p.direct)
		var scs []*replay.Scenario
		for name, q := range map[string]string{"warned": warned, "clean": clean} {
			scs = append(scs, &replay.Scenario{Name: name, Count: 1, Queries: []string{q},
				NewRenderer: func(uint64, int) replay.Renderer { return constRenderer(q) }})
		}
		sink := &countSink{}
		res, err := replay.Run(context.Background(), replay.Config{
			RunID: "w", Threads: 1, Events: 3, Seed: 1, Prepared: true,
			Endpoints: []replay.Endpoint{{Name: "test", DB: db, Direct: p.direct}}, Scenarios: scs, Sink: sink,
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := results.WarningsCounted(res.Paths); got != p.direct {
			t.Errorf("%s: warnings counted %v, want %v (paths %+v)", p.name, got, p.direct, res.Paths)
		}
		seen := map[string]int{}
		for _, r := range sink.rows {
			want := int32(0)
			if r.Scenario == "warned" && p.direct {
				want = 2
			}
			if r.Warnings != want {
				t.Errorf("%s: %s recorded %d warnings, want %d", p.name, r.Scenario, r.Warnings, want)
			}
			seen[r.Scenario]++
		}
		if seen["warned"] == 0 || seen["clean"] == 0 {
			t.Fatalf("%s: executions %v", p.name, seen)
		}
	}
}
