package replay

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
)

func TestParseRetryErrors(t *testing.T) {
	for in, want := range map[string][]uint16{"1213,1205": {1213, 1205}, "none": {}, "": {}, " 1062 ": {1062}} {
		got, err := ParseRetryErrors(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, %v", in, got, err)
		}
	}
	if _, err := ParseRetryErrors("1213,deadlock"); !usage.Is(err) {
		t.Errorf("err = %v", err)
	}
}

// TestNewSession: the session checks the options and compiles the
// scenarios they choose; run.json records the defaults it filled in and
// the scenario specs sorted.
func TestNewSession(t *testing.T) {
	o := Options{RunOptions: results.RunOptions{
		Scenario: []string{"simple_inner_pk=2", "index_updates"}, Threads: 2, Tables: 1, TableSize: 100, TableName: "main",
		Distribution: "uniform", IgnoreErrors: "1213", PsMode: results.PsAuto, ExecPath: results.ExecDirect, Explain: results.ExplainOff}}
	s, err := NewSession(o)
	if err != nil {
		t.Fatal(err)
	}
	if !s.UsesBuiltin() || len(s.work.scenarios) != 2 || !reflect.DeepEqual(s.work.writes, []string{"index_updates"}) ||
		!reflect.DeepEqual(s.retry, []uint16{1213}) {
		t.Errorf("session %+v, work %+v", s, s.work)
	}
	rec := s.opts.record()
	if rec.Time != results.Duration(DefaultDuration) || !reflect.DeepEqual(rec.Scenario, []string{"index_updates", "simple_inner_pk=2"}) {
		t.Errorf("recorded %+v", rec)
	}
	if o.Scenario[0] != "simple_inner_pk=2" {
		t.Error("the caller's scenario specs were sorted in place")
	}
	cfg := s.opts.config(s.retry)
	if cfg.Duration != DefaultDuration || cfg.Explain != ExplainOff || !cfg.Prepared || cfg.DriverPath || cfg.Checksum != nil {
		t.Errorf("engine config %+v", cfg)
	}
	o.Events, o.Time = 5, results.Duration(time.Minute)
	o.ExecPath, o.PsMode, o.Explain, o.Checksum = results.ExecDriver, results.PsDisable, results.ExplainAnalyze, true
	if s, err = NewSession(o); err != nil {
		t.Fatal(err)
	}
	cfg = s.opts.config(s.retry)
	if cfg.Duration != time.Minute || cfg.Events != 5 || cfg.Explain != ExplainAnalyze || cfg.Prepared || !cfg.DriverPath || cfg.Checksum == nil {
		t.Errorf("engine config %+v", cfg)
	}

	for name, bad := range map[string]func(*Options){
		"threads":       func(o *Options) { o.Threads = 0 },
		"tables":        func(o *Options) { o.Tables = 0 },
		"ignore errors": func(o *Options) { o.IgnoreErrors = "x" },
		"negative rate": func(o *Options) { o.Rate = -1 },
		"NaN rate":      func(o *Options) { o.Rate = math.NaN() },
		"negative time": func(o *Options) { o.Time = results.Duration(-time.Second) },
		"report every":  func(o *Options) { o.ReportInterval = -time.Second },
		"report 1ns":    func(o *Options) { o.ReportInterval = time.Nanosecond },
		"threads 100k":  func(o *Options) { o.Threads = 100_000 },
		"tables 1M":     func(o *Options) { o.Tables = 1_000_000 },
		"bad run id":    func(o *Options) { o.RunID = "a/b" },
		"no scenario":   func(o *Options) { o.Scenario = []string{"simple_inner_pk=0"} },
		"unknown":       func(o *Options) { o.Scenario = []string{"no_such_scenario"} },
		"read only":     func(o *Options) { o.ReadOnly = true },
	} {
		o := o
		bad(&o)
		if _, err := NewSession(o); !usage.Is(err) {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}

// TestCheckRunIDTaken refuses a run id already used in --out, but lets the
// segments of a split run share their folder: only a segment's own
// metadata means it ran before.
func TestCheckRunIDTaken(t *testing.T) {
	out := t.TempDir()
	base := Options{RunOptions: results.RunOptions{Threads: 1, Tables: 1, TableSize: 10}, RunID: "r", Out: out}
	if err := base.check(); err != nil {
		t.Fatalf("fresh run id: %v", err)
	}
	dir := filepath.Join(out, results.RunDirPrefix+"r")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := base.check(); err == nil || !usage.Is(err) {
		t.Errorf("a used run id: %v, want a usage error", err)
	}
	seg := base
	seg.Segment = segment.Segment{Index: 2, Count: 3}
	if err := seg.check(); err != nil {
		t.Errorf("segment 2 joining the folder segment 1 made: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, results.SegmentFile(2)), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := seg.check(); err == nil || !usage.Is(err) {
		t.Errorf("segment 2 run twice: %v, want a usage error", err)
	}
}

// --work picks when reads are sampled: after the measured phase by
// default (sample), while it runs with during; anything else is a usage
// error naming the three.
func TestWorkModes(t *testing.T) {
	for mode, want := range map[string]struct{ sampled, during bool }{
		"": {true, false}, results.WorkSample: {true, false}, results.WorkDuring: {true, true}, results.WorkOff: {false, false},
	} {
		o := Options{RunOptions: results.RunOptions{Threads: 1, Tables: 1, TableSize: 10, Work: mode}}
		if err := o.check(); err != nil {
			t.Fatalf("--work %q: %v", mode, err)
		}
		o = o.withDefaults()
		c := o.config(nil)
		if got := c.Work.Budget > 0; got != want.sampled || c.Work.During != want.during {
			t.Errorf("--work %q: sampled %v, during %v; want %+v", mode, got, c.Work.During, want)
		}
	}
	o := Options{RunOptions: results.RunOptions{Threads: 1, Tables: 1, TableSize: 10, Work: "always"}}
	if err := o.check(); err == nil || !usage.Is(err) || err.Error() != `--work "always": sample, during or off` {
		t.Errorf("--work always: %v", err)
	}
}
