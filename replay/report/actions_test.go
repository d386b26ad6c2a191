package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/replay/compare"
	"github.com/joinbench/joinbench/replay/internal/fixture"
	"github.com/joinbench/joinbench/replay/results"
)

// A run on two endpoints with one action: the report measures its cost
// (the stall on the endpoint whose writes stopped), draws it as a band on
// the charts, and shows per-endpoint, flow control and hit ratio charts.
func TestReportActions(t *testing.T) {
	eps := []string{"127.0.0.1:1", "127.0.0.1:2"}
	var execs []results.Execution
	for ms := 0; ms < 6000; ms += 5 {
		for i, ep := range eps {
			// Endpoint 2 completes no write between 2 s and 3.5 s.
			if i == 1 && ms >= 2000 && ms < 3500 {
				continue
			}
			execs = append(execs, results.Execution{Scenario: "w", Endpoint: ep, Start: fixture.T0.Add(time.Duration(ms) * time.Millisecond),
				LatencyNs: int64(time.Millisecond), Params: []string{}})
		}
	}
	var status []results.Status
	for s := 1; s <= 6; s++ {
		at := fixture.T0.Add(time.Duration(s) * time.Second)
		for _, ep := range eps {
			status = append(status,
				results.Status{Endpoint: ep, Time: at, Interval: 1, Variable: "Innodb_buffer_pool_read_requests", Delta: 1000},
				results.Status{Endpoint: ep, Time: at, Interval: 1, Variable: "Innodb_buffer_pool_reads", Delta: 100},
				results.Status{Endpoint: ep, Time: at, Interval: 1, Variable: "wsrep_flow_control_paused_ns", Delta: 500_000_000},
				results.Status{Endpoint: ep, Time: at, Interval: 1, Variable: "wsrep_local_recv_queue", Delta: int64(s), Gauge: true})
		}
	}
	parent := t.TempDir()
	dir := fixture.Run{ID: "a", Execs: execs, Status: status, Hosts: 1, Info: &results.Run{RunID: "a", Endpoints: eps,
		WriteScenarios: []string{"w"}, Start: fixture.T0, End: fixture.T0.Add(6 * time.Second)}}.Write(t, parent)
	rd, err := results.Create(parent, "tmp", "h")
	if err != nil {
		t.Fatal(err)
	}
	// WriteActions writes into its own run folder: move the file over.
	if err := rd.WriteActions([]results.Action{{Action: 1, Step: 1, Kind: "lock", Endpoint: eps[1], Spec: "2s@2: lock 1s: w",
		Start: fixture.T0.Add(2 * time.Second), End: fixture.T0.Add(3 * time.Second), Outcome: results.ActionOK}}); err != nil {
		t.Fatal(err)
	}
	rd.Close()
	if err := os.Rename(filepath.Join(rd.Path(), results.ActionsFile), filepath.Join(dir, results.ActionsFile)); err != nil {
		t.Fatal(err)
	}
	rep, err := Build([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rr := rep.Runs[0]
	if len(rr.Actions) != 1 || len(rr.Actions[0].Endpoints) != 3 || rr.Actions[0].Endpoints[2].Endpoint != "(all)" {
		t.Fatalf("actions %+v", rr.Actions)
	}
	c := rr.Actions[0]
	if got := c.Endpoints[1].LongestZeroWriteMs; got < 1400 || got > 1520 {
		t.Errorf("endpoint 2 stalled %v ms, want about 1500", got)
	}
	if got := c.Endpoints[0].LongestZeroWriteMs; got > 10 {
		t.Errorf("endpoint 1 stalled %v ms, want none", got)
	}
	// Endpoint 1 wrote all along: the cluster as a whole never stopped.
	if got := c.Endpoints[2].LongestZeroWriteMs; got > 10 {
		t.Errorf("all endpoints stalled %v ms together, want none", got)
	}
	if len(rr.Endpoints) != 2 || rr.Endpoints[0].Timeline[0].MaxMs != 1 {
		t.Errorf("endpoint timelines %+v", rr.Endpoints)
	}
	if len(rr.BufferPoolHitRatio) != 2 || rr.BufferPoolHitRatio[0].Points[0].Ratio != 0.9 {
		t.Errorf("hit ratio %+v", rr.BufferPoolHitRatio)
	}
	for _, cs := range rr.Counters {
		if cs.Variable == "wsrep_local_recv_queue" && (!cs.Gauge || cs.Points[2].PerSec != 3) {
			t.Errorf("receive queue %+v, want a gauge read as its level", cs)
		}
	}
	var b bytes.Buffer
	if err := rep.writeHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`class="band"`, "action 1: lock on 127.0.0.1:2 (ok)", "flow control: fraction of time paused, per node",
		"buffer pool hit ratio", "executions/s per endpoint", "longest zero-write ms"} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
}

// compare of two runs that differ in how a change was made says, per
// endpoint, which stalled less.
func TestCompareStalls(t *testing.T) {
	parent := t.TempDir()
	toi, rsu, again := fixture.StallRun(t, parent, "toi", 1500), fixture.StallRun(t, parent, "rsu", 0), fixture.StallRun(t, parent, "toi2", 1450)
	c, err := Compare([]string{toi}, []string{rsu}, compare.Options{Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Stalls
	if s == nil || len(s.Endpoints) != 3 {
		t.Fatalf("stalls %+v", s)
	}
	if s.Verdict != compare.LessStall || s.Endpoints[0].Verdict != compare.SameStall || s.Endpoints[1].Verdict != compare.LessStall ||
		s.Endpoints[1].BaseLongestMs < 1400 || s.Endpoints[1].CandidateLongestMs > 10 {
		t.Errorf("TOI vs RSU: %+v", s)
	}
	var b bytes.Buffer
	if err := WriteComparison(&b, c, "text"); err != nil || !strings.Contains(b.String(), "candidate has less stall") {
		t.Errorf("text (%v):\n%s", err, b.String())
	}
	// Reversed, more stall; the same stall twice, no change.
	if c, _ := Compare([]string{rsu}, []string{toi}, compare.Options{Resamples: 100}); c.Stalls.Verdict != compare.MoreStall {
		t.Errorf("RSU vs TOI: %s", c.Stalls.Verdict)
	}
	if c, _ := Compare([]string{toi}, []string{again}, compare.Options{Resamples: 100}); c.Stalls.Verdict != compare.SameStall {
		t.Errorf("TOI vs TOI: %+v", c.Stalls)
	}
	// Runs without actions have no stall comparison.
	plain := fixture.Run{ID: "plain", Execs: []results.Execution{{Scenario: "w", Start: fixture.T0, LatencyNs: 1, Params: []string{}}}}.Write(t, parent)
	if c, _ := Compare([]string{plain}, []string{rsu}, compare.Options{Resamples: 100}); c.Stalls != nil {
		t.Errorf("without actions: %+v", c.Stalls)
	}
}
