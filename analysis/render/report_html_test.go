package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/results"
)

// TestHTMLShowsWhatARunRecorded: the page shows the run's settings and
// server variables from run.json, each scenario's SQL as run.json has it
// and its slowest executions with their parameters; anchors are the
// scenarios' names, after the run's id when the page shows several runs;
// a run without Galera counters names no flow control.
func TestHTMLShowsWhatARunRecorded(t *testing.T) {
	parent := t.TempDir()
	var dirs []string
	for _, id := range []string{"r1", "r2"} {
		f := reportFixture()
		f.ID = id
		for i := range f.Execs {
			f.Execs[i].Params = []string{"main1", "Europe"}
		}
		f.Info = &results.Run{RunID: id, ServerVars: map[string]string{"innodb_buffer_pool_size": "268435456"},
			Options:     &results.RunOptions{Threads: 7, Tags: []string{"simple"}},
			ScenarioSQL: map[string]string{"simple_inner_pk": "SELECT 1 FROM {{m}} WHERE continent = {{continent}}"}}
		dirs = append(dirs, f.Write(t, parent))
	}
	one, err := report.Build(dirs[:1], report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeHTML(&b, one); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<b>threads</b><span>7</span>`, `<b>tags</b><span>simple</span>`, `<b>innodb_buffer_pool_size</b><span>268435456</span>`,
		`<pre class="sql">SELECT 1 FROM {{m}} WHERE continent = {{continent}}</pre>`,
		`<td class="params">main1, Europe</td>`, `id="simple_inner_pk"`, `href="#simple_inner_pk"`, `href="#multilevel_inner_pk">multilevel_inner_pk</a></td><td>1205</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, "Flow control") {
		t.Errorf("a run without Galera has a flow control heading")
	}
	if n := strings.Count(page, `<table class="slow">`); n != 3 {
		t.Errorf("%d tables of slowest executions, want one per scenario", n)
	}

	both, err := report.Build(dirs, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := writeHTML(&b, both); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="r1.simple_inner_pk"`, `id="r2.simple_inner_pk"`, `href="#r2.simple_inner_pk"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the page of two runs lacks %s", want)
		}
	}
}
