package judge

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

// A candidate slower in its tail only (every scenario's p95 1.8x, the
// medians unchanged) is a regression of the overall row, which judges
// the geometric mean of the p95s as well as of the medians.
func TestOverallJudgesTheTail(t *testing.T) {
	dir := t.TempDir()
	const rounds = 6
	var base, cand []string
	order := 0
	for k := 1; k <= rounds; k++ {
		for _, side := range []string{results.SideBase, results.SideCandidate} {
			order++
			sigma := 0.25
			if side == results.SideCandidate {
				sigma = 0.6
			}
			var scs []fixture.Scen
			for i := range 6 {
				scs = append(scs, fixture.Scen{Name: fmt.Sprintf("s%d", i), N: 400, MedianMs: 5 * fixture.Drift[(k-1)%len(fixture.Drift)], Sigma: sigma, Plan: "p"})
			}
			id := fmt.Sprintf("t-%s-%02d", side, k)
			info := &results.Run{RunID: id, ServerVersion: "10.11.6-MariaDB", Flavor: "mariadb",
				Replicate: &results.Replicate{Series: "t", Side: side, Round: k, Order: order, Rounds: rounds}}
			d := fixture.Run{ID: id, Info: info, Hosts: 1, Execs: fixture.Gen(uint64(100*k+order), 5, scs...)}.Write(t, filepath.Join(dir, side))
			if side == results.SideBase {
				base = append(base, d)
			} else {
				cand = append(cand, d)
			}
		}
	}
	c, err := Compare(base, cand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := c.Overall
	if o == nil || o.P95 == nil {
		t.Fatalf("overall row %+v", o)
	}
	if o.Verdict != compare.Regression || o.Median.Low > 1 || o.P95.Low <= 1 {
		t.Errorf("overall: %s, median %+v, p95 %+v: %q", o.Verdict, *o.Median, *o.P95, o.Reasons)
	}
	if !c.Failed() {
		t.Error("a tail regression of every scenario passes")
	}
}
