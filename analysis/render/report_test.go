package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/results"
)

func reportFixture() fixture.Run {
	var status []results.Status
	for s := 1; s <= 20; s++ {
		for _, v := range []struct {
			name string
			per  int64
		}{{"Handler_read_key", 5000}, {"Innodb_rows_read", 20000 + int64(s)*500}, {"Select_scan", 3}} {
			status = append(status, results.Status{Endpoint: "127.0.0.1:3306", Time: fixture.T0.Add(time.Duration(s) * time.Second),
				Interval: 1, Variable: v.name, Delta: v.per})
		}
	}
	return fixture.Run{ID: "r1", Execs: fixture.Gen(11, 20,
		fixture.Scen{Name: "simple_inner_index", N: 3000, MedianMs: 2, Sigma: 0.5, Plan: "pi"},
		fixture.Scen{Name: "simple_inner_pk", N: 2000, MedianMs: 0.8, Plan: "pk"},
		fixture.Scen{Name: "multilevel_inner_pk", N: 600, MedianMs: 15, Sigma: 0.7, Plan: "ml", ErrEvery: 50, ErrCode: 1205},
	), Plans: []results.Plan{fixture.Plan("simple_inner_index", "pi", fixture.TreeIndex),
		{Scenario: "simple_inner_pk", PlanHash: "pk", Format: "json", Explain: `{"query_block":{"select_id":1,"table":{"table_name":"m","access_type":"ref"}}}`}},
		Status: status}
}

func TestReportRun(t *testing.T) {
	dir := reportFixture().Write(t, t.TempDir())
	rep, err := report.Build([]string{dir}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rr := rep.Runs[0]
	if rr.Files != 2 || len(rr.Warnings) != 0 || rr.RunID != "r1" {
		t.Fatalf("files %d warnings %v id %s", rr.Files, rr.Warnings, rr.RunID)
	}
	if len(rr.Scenarios) != 3 || rr.Total.Executions != 5600 || rr.Total.Errors != 12 {
		t.Fatalf("%d scenarios, total %+v", len(rr.Scenarios), rr.Total)
	}
	s := rr.Scenarios[1] // sorted: multilevel_inner_pk, simple_inner_index, simple_inner_pk
	if s.Scenario != "simple_inner_index" || s.Executions != 3000 || s.P50Ms < 1.8 || s.P50Ms > 2.2 ||
		!(s.P50Ms < s.P95Ms && s.P95Ms < s.P99Ms && s.P99Ms <= s.MaxMs) || s.QPS < 140 || s.QPS > 160 {
		t.Errorf("summary %+v", s.Summary)
	}
	if len(s.Timeline) < 20 || len(s.Timeline) > 21 || len(s.Histogram) != 40 || s.Histogram[39].Cumulative != 1 {
		t.Errorf("timeline %d points, histogram %d bins", len(s.Timeline), len(s.Histogram))
	}
	if len(s.Plans) != 1 || s.Plans[0].Executions != 3000 || !strings.Contains(s.Plans[0].Tree, "idx_parent_id") {
		t.Errorf("plans %+v", s.Plans)
	}
	if pk := rr.Scenarios[2]; pk.Plans[0].Tree != "query_block #1\n  m ref" {
		t.Errorf("json plan not drawn as a tree: %q", pk.Plans[0].Tree)
	}
	if ml := rr.Scenarios[0]; ml.Errors != 12 || ml.ErrorCodes["1205"] != 12 {
		t.Errorf("errors %d %v", ml.Errors, ml.ErrorCodes)
	}
	if len(rr.Counters) != 3 || rr.Counters[0].Variable != "Handler_read_key" || rr.Counters[0].Points[0].PerSec != 5000 {
		t.Errorf("counters %+v", rr.Counters)
	}

	var js bytes.Buffer
	if err := Report(&js, rep, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Runs []struct {
			RunID     string `json:"run_id"`
			Scenarios []struct {
				Scenario string  `json:"scenario"`
				P95      float64 `json:"p95_ms"`
				QPS      float64 `json:"queries_per_second"`
				Timeline []struct {
					QPS float64 `json:"queries_per_second"`
				} `json:"timeline"`
				Plans []struct {
					Hash string `json:"plan_hash"`
				} `json:"plans"`
			} `json:"scenarios"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if g := got.Runs[0]; g.RunID != "r1" || g.Scenarios[1].P95 == 0 || len(g.Scenarios[1].Timeline) == 0 || g.Scenarios[1].Plans[0].Hash != "pi" {
		t.Errorf("json %+v", g)
	}

	var txt bytes.Buffer
	if err := Report(&txt, rep, FormatText); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"simple_inner_index  ", "multilevel_inner_pk: 1205 x12", "Index lookup on level1", "(all)"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
}

// A report keeps statements cut at the end out of the latencies, the
// errors and the executions, counts them per scenario and in the total,
// and lists a scenario that only has cut statements as never completed.
func TestReportCountsCutApart(t *testing.T) {
	dir := t.TempDir()
	execs := fixture.Gen(1, 5, fixture.Scen{Name: "a", N: 1000, MedianMs: 2, Plan: "p"})
	// In the middle of the rows, so that a row group holds both kinds.
	execs = append(execs[:500], append(fixture.CutRows("a", 2, 5*time.Second), execs[500:]...)...)
	execs = append(execs, fixture.CutRows("stall", 1, 20*time.Second)...)
	plain := fixture.Run{ID: "plain", Execs: fixture.Gen(1, 5, fixture.Scen{Name: "a", N: 1000, MedianMs: 2, Plan: "p"})}.Write(t, dir)
	withCut := fixture.Run{ID: "cut", Execs: execs}.Write(t, dir)
	rep, err := report.Build([]string{plain, withCut}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, got := rep.Runs[0], rep.Runs[1]
	if len(got.Scenarios) != 2 || got.Scenarios[0].Scenario != "a" || got.Scenarios[1].Scenario != "stall" {
		t.Fatalf("scenarios: %+v", got.Scenarios)
	}
	a, stall := got.Scenarios[0], got.Scenarios[1]
	wa := want.Scenarios[0].Summary
	wa.CutAtEnd, wa.CutRanMs = 2, 5001
	if a.Summary != wa {
		t.Errorf("a: %+v\nwant %+v (the run without the cut statements, and them counted)", a.Summary, wa)
	}
	if len(a.ErrorCodes) != 0 {
		t.Errorf("a: error codes %v", a.ErrorCodes)
	}
	if stall.Executions != 0 || stall.Errors != 0 || stall.CutAtEnd != 1 || stall.CutRanMs != 20000 {
		t.Errorf("stall: %+v", stall.Summary)
	}
	if got.Total.Executions != want.Total.Executions || got.Total.Errors != 0 || got.Total.CutAtEnd != 3 || got.Total.CutRanMs != 20000 {
		t.Errorf("total: %+v", got.Total)
	}
	var buf bytes.Buffer
	if err := Report(&buf, &report.Report{Runs: []report.RunReport{got}}, "text"); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, s := range []string{"Cut at the end (3 statements", "a: 2 cut at the end, the longest after 5.001s\n",
		"stall: 1 cut at the end, the longest after 20s: never completed, ran at least 20s"} {
		if !strings.Contains(text, s) {
			t.Errorf("text report lacks %q:\n%s", s, text)
		}
	}
	if strings.Contains(text, "Errors by code") {
		t.Errorf("cut statements shown as errors:\n%s", text)
	}
	for _, f := range []string{"html", "json", "markdown"} {
		var out bytes.Buffer
		if err := Report(&out, &report.Report{Runs: []report.RunReport{got}}, f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if f == "html" && !strings.Contains(out.String(), "stall 1, the longest after 20000 ms (never completed)") {
			t.Errorf("html report lacks the cut statements")
		}
	}
}

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
	rep, err := report.Build([]string{dir}, report.Options{})
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
	if err := writeHTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`class="band"`, "action 1: lock on 127.0.0.1:2 (ok)", "flow control: fraction of time paused, per node",
		"buffer pool hit ratio", "executions/s per endpoint", "longest zero-write ms", "Flow control and buffer pool per node"} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
}

// TestReportCountsRetriesAndConflicts: statements retried, and events
// whose COMMIT a cluster refused (conflicts) or that failed otherwise, are
// counted from the files and shown beside the errors.
func TestReportCountsRetriesAndConflicts(t *testing.T) {
	execs := fixture.Gen(1, 5, fixture.Scen{Name: "a", N: 1000, MedianMs: 2, Plan: "p"})
	for i := range execs {
		switch {
		case i%100 == 1:
			execs[i].Retries = 2
		case i%250 == 7:
			execs[i].CommitErrorCode = 1213
		case i == 500:
			execs[i].CommitErrorCode = 1047
		}
	}
	dir := fixture.Run{ID: "c", Execs: execs}.Write(t, t.TempDir())
	rep, err := report.Build([]string{dir}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tot := rep.Runs[0].Total
	if tot.Retries != 20 || tot.Conflicts != 4 || tot.FailedCommits != 5 || tot.Errors != 0 {
		t.Errorf("total %+v: want 20 retries, 4 conflicts, 5 failed commits, 0 errors", tot)
	}
	var txt, page bytes.Buffer
	if err := Report(&txt, rep, FormatText); err != nil {
		t.Fatal(err)
	}
	if err := Report(&page, rep, FormatHTML); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"retries", "conflicts: 4 transactions whose COMMIT the cluster's certification refused; 1 other failed COMMITs"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
	for _, want := range []string{"<th>retries</th>", "conflicts: 4 transactions", "other failed COMMITs: 1"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

// TestReportNodesBehindAProxy: a run whose traffic went to a proxy has its
// figures split by the node each connection reached.
func TestReportNodesBehindAProxy(t *testing.T) {
	execs := fixture.Gen(1, 5, fixture.Scen{Name: "a", N: 900, MedianMs: 2, Plan: "p"})
	for i := range execs {
		execs[i].Endpoint = "127.0.0.1:9000"
		execs[i].Node = []string{"node1", "node2", "node3"}[i%3]
		if i%3 == 1 && i%30 == 1 {
			execs[i].CommitErrorCode = 1213
		}
	}
	info := &results.Run{RunID: "p", Endpoints: []string{"127.0.0.1:9000"}, Start: fixture.T0, End: fixture.T0.Add(5 * time.Second),
		Nodes: []results.Node{{Name: "node1", Endpoint: "127.0.0.1:1"}, {Name: "node2", Endpoint: "127.0.0.1:2"}, {Name: "node3", Endpoint: "127.0.0.1:3"}}}
	dir := fixture.Run{ID: "p", Execs: execs, Info: info}.Write(t, t.TempDir())
	rep, err := report.Build([]string{dir}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nodes := rep.Runs[0].Nodes
	if len(nodes) != 3 || nodes[0].Node != "node1" || nodes[1].Node != "node2" || nodes[0].Executions != 300 || nodes[1].Conflicts != 30 {
		t.Fatalf("nodes %+v", nodes)
	}
	var txt bytes.Buffer
	if err := Report(&txt, rep, FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "Nodes (the server each connection reached") || !strings.Contains(txt.String(), "node3 ") {
		t.Errorf("text lacks the nodes:\n%s", txt.String())
	}
	var page bytes.Buffer
	if err := Report(&page, rep, FormatHTML); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<td>node2</td><td>300</td>") {
		t.Errorf("HTML lacks the nodes")
	}
}

// TestHTMLNamesNodes: the charts' legends and titles name the cluster's
// nodes as the run knows them (node2), not by host:port, and no title runs
// past its chart.
func TestHTMLNamesNodes(t *testing.T) {
	dir := fixture.MethodRun(t, t.TempDir(), "n", fixture.Method{Spec: "2s@node2: pause 1s", StallMs: 800, PausedNs: 5e8})
	rep, err := report.Build([]string{dir}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeHTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`class="lg">node1</text>`, `class="lg">node2</text>`, `<td class="ep">node2</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, `class="lg">127.0.0.1:`) {
		t.Errorf("a legend names a node by host:port")
	}
	for _, part := range strings.Split(page, `class="ct">`)[1:] {
		if l := part[:strings.Index(part, "</text>")]; len(l) > 72 {
			t.Errorf("title line %q is too long for a chart", l)
		}
	}
}
