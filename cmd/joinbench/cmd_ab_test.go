package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/results"
)

func TestParseServer(t *testing.T) {
	cases := []struct {
		in   []string
		want abServer
	}{
		{[]string{"m1011"}, abServer{sandbox: "m1011", label: "sandbox m1011"}},
		{[]string{"db1:3307"}, abServer{host: "db1", port: 3307, label: "db1:3307"}},
		{[]string{":3307"}, abServer{host: "127.0.0.1", port: 3307, label: ":3307"}},
		{[]string{"/run/mysqld/mysqld.sock"}, abServer{socket: "/run/mysqld/mysqld.sock", label: "/run/mysqld/mysqld.sock"}},
		{[]string{"u:secret@tcp(n1:3306)/jb", "u:secret@tcp(n2:3306)/jb"},
			abServer{dsns: []string{"u:secret@tcp(n1:3306)/jb", "u:secret@tcp(n2:3306)/jb"}, label: "n1:3306,n2:3306"}},
	}
	for _, c := range cases {
		got, err := parseServer("--base", c.in)
		if err != nil || strings.Join(got.dsns, " ") != strings.Join(c.want.dsns, " ") || got.host != c.want.host || got.port != c.want.port ||
			got.socket != c.want.socket || got.sandbox != c.want.sandbox || got.label != c.want.label {
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if strings.Contains(got.label, "secret") {
			t.Errorf("%q: label %q shows the password", c.in, got.label)
		}
	}
	for _, bad := range [][]string{{"db1:port"}, {"a", "b"}, {""}, {"u@tcp(x"}} {
		if _, err := parseServer("--base", bad); !usage.Is(err) {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
}

func TestABUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"ab", "--base", "a"}, // no candidate
		{"ab", "--base", "a", "--candidate", "b", "--rounds", "0"},      // no round
		{"ab", "--base", "a", "--candidate", "b", "--rounds", "10001"},  // more rounds than a comparison reads
		{"ab", "--base", "a", "--calibrate", "n.json", "--rounds", "1"}, // one round cannot calibrate
		{"ab", "--base", "a", "--candidate", "b", "--port", "3306"},     // a server named the run way
		{"ab", "--base", "a", "--candidate", "b", "--json", "--format", "markdown"},
		{"ab", "--base", "a", "--candidate", "b", "--calibrate", "n.json", "--noise-file", "cmd_ab_test.go"},
		{"ab", "--base", "a", "--candidate", "b", "--events", "100"}, // rounds of statements in lockstep are slices of --time
		{"ab", "--base", "a", "--candidate", "b", "--rate", "50"},
		{"ab", "--base", "a", "--candidate", "b", "--interleave", "sometimes"},
		{"ab", "--base", "a", "--candidate-slow", "fast"},                         // not a percentage
		{"ab", "--base", "a", "--candidate-slow", "-5%"},                          // below 0
		{"ab", "--base", "a", "--candidate-slow", "20%", "--calibrate", "n.json"}, // calibration wants nothing different
	} {
		if code, _ := runCaptured(t, append(args, "-q")...); code != 2 {
			t.Errorf("joinbench %s: exit %d, want 2", strings.Join(args, " "), code)
		}
	}
}

// TestABCommand runs ab end to end on the test server, with both sides on
// the same database: rounds are recorded in the ab layout with their
// replicate metadata, compared pairwise, and a calibration is written and
// used.
func TestABCommand(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_ab")
	if code, _ := runCaptured(t, "prepare", "--dsn", dsn, "--table-size", "200", "-q"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	noise := filepath.Join(out, "noise.json")
	load := []string{"-s", "simple_inner_pk", "-s", "simple_left_pk", "--table-size", "200", "--threads", "1", "--events", "40",
		"--warmup", "0s", "--rounds", "2", "--interleave", "rounds", "--out", out, "-q"}
	code, stdout := runCaptured(t, append([]string{"ab", "--base", dsn, "--run-id", "cal", "--calibrate", noise}, load...)...)
	if code != 0 {
		t.Fatalf("ab --calibrate: exit %d\n%s", code, stdout)
	}
	n, err := compare.ReadNoise(noise)
	if err != nil || len(n.Scenarios) != 2 || n.Scenarios["simple_inner_pk"].Rounds != 4 {
		t.Fatalf("calibration: %v %+v", err, n)
	}

	// Both sides are the same server; the threshold keeps a machine busy
	// with other tests from making a verdict of a burst.
	jsonOut := filepath.Join(out, "ab.json")
	code, _ = runCaptured(t, append([]string{"ab", "--base", dsn, "--candidate", dsn, "--run-id", "s1", "--noise-file", noise,
		"--threshold", "1000%", "--format", "json", "-o", jsonOut}, load...)...)
	b, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var c compare.Comparison
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if code != 0 {
		for _, s := range append(c.Scenarios, *c.Overall) {
			t.Logf("%s: %s %q", s.Scenario, s.Verdict, s.Reasons)
		}
		t.Fatalf("ab: exit %d", code)
	}
	if c.Base.Rounds != 2 || c.Candidate.Rounds != 2 || len(c.Scenarios) != 2 || c.NoiseFile != noise {
		t.Fatalf("comparison %+v", c)
	}
	for _, s := range c.Scenarios {
		if s.Method != compare.MethodPaired || s.BaseRounds != 2 || s.CandidateRounds != 2 || s.BaseExecutions != 80 {
			t.Errorf("%s: %s by %s over %d/%d rounds, %d executions", s.Scenario, s.Verdict, s.Method, s.BaseRounds, s.CandidateRounds, s.BaseExecutions)
		}
	}
	for i, side := range []string{results.SideBase, results.SideCandidate} {
		for k, id := range []string{"s1-" + side + "-01", "s1-" + side + "-02"} {
			info := results.ReadRunInfo(filepath.Join(out, "ab=s1", "side="+side, "run="+id), func(err error) { t.Error(err) })
			want := results.Replicate{Series: "s1", Side: side, Round: k + 1, Rounds: 2,
				Order: []int{1, 4, 2, 3}[i*2+k]} // base, candidate, candidate, base
			if info == nil || info.Replicate == nil || *info.Replicate != want {
				t.Errorf("%s: replicate %+v, want %+v", id, info, want)
			}
		}
	}
}

// TestABRoundLongerThanItsEvents: an event that outlasts the warm-up and
// the round (a candidate many times slower) must not leave rounds empty;
// the round is run again without warm-up, and so are the later ones.
func TestABRoundLongerThanItsEvents(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_ab_slow")
	corpus := t.TempDir()
	if err := os.WriteFile(filepath.Join(corpus, "slow_event.sql"), []byte(
		"-- scenario: slow_event\n-- description: one statement longer than a round\n-- tags: test\nSELECT SLEEP(1.5);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	jsonOut := filepath.Join(out, "ab.json")
	code, _ := runCaptured(t, "ab", "--base", dsn, "--candidate", dsn, "--no-builtin", "--corpus", corpus, "-s", "slow_event",
		"--threads", "1", "--time", "500ms", "--warmup", "500ms", "--rounds", "2", "--interleave", "rounds", "--explain", "off", "--out", out, "--run-id", "s",
		"--format", "json", "-o", jsonOut, "-q")
	if code != 0 {
		t.Fatalf("ab: exit %d", code)
	}
	b, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var c compare.Comparison
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Scenarios) != 1 || c.Scenarios[0].Method != compare.MethodPaired || c.Scenarios[0].BaseExecutions != 2 {
		t.Fatalf("comparison of rounds longer than their events: %+v", c.Scenarios)
	}
	for _, id := range []string{"base-01", "candidate-01", "candidate-02", "base-02"} {
		info := results.ReadRunInfo(filepath.Join(out, "ab=s", "side="+strings.Split(id, "-")[0], "run=s-"+id), nil)
		if info == nil || info.Executions != 1 {
			t.Errorf("round %s: %+v", id, info)
		}
	}
}

// TestABLockstep runs ab in its default mode end to end on the test
// server, both sides on the same database: one run per side, the two
// taking turns statement by statement, each slice of --time a round,
// compared pairwise.
func TestABLockstep(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_ab_lockstep")
	if code, _ := runCaptured(t, "prepare", "--dsn", dsn, "--table-size", "200", "-q"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	jsonOut := filepath.Join(out, "ab.json")
	code, _ := runCaptured(t, "ab", "--base", dsn, "--candidate", dsn, "-s", "simple_inner_pk", "-s", "simple_left_pk",
		"--table-size", "200", "--threads", "2", "--time", "1s", "--rounds", "3", "--warmup", "200ms", "--run-id", "ls",
		"--threshold", "1000%", "--out", out, "--format", "json", "-o", jsonOut, "-q")
	b, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatalf("ab: exit %d, %v", code, err)
	}
	var c compare.Comparison
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if code != 0 {
		t.Fatalf("ab: exit %d: %+v", code, c.Scenarios)
	}
	if c.Base.Rounds != 3 || c.Candidate.Rounds != 3 || len(c.Scenarios) != 2 || c.Overall == nil {
		t.Fatalf("comparison: rounds %d/%d, %d scenarios, overall %+v", c.Base.Rounds, c.Candidate.Rounds, len(c.Scenarios), c.Overall)
	}
	if notes := strings.Join(c.Notes, "\n"); !strings.Contains(notes, "an A/A comparison") {
		t.Errorf("both sides on one server, notes %q", c.Notes)
	}
	for _, s := range c.Scenarios {
		if s.Method != compare.MethodPaired || s.BaseRounds != 3 || s.CandidateRounds != 3 {
			t.Errorf("%s: %s by %s over %d/%d rounds", s.Scenario, s.Verdict, s.Method, s.BaseRounds, s.CandidateRounds)
		}
	}
	var execs [2]int64
	for i, side := range []string{results.SideBase, results.SideCandidate} {
		info := results.ReadRunInfo(filepath.Join(out, "ab=ls", "side="+side, "run=ls-"+side), func(err error) { t.Error(err) })
		want := results.Replicate{Series: "ls", Side: side, Rounds: 3, Slice: results.Duration(time.Second)}
		if info == nil || info.Replicate == nil || *info.Replicate != want {
			t.Fatalf("%s: run.json %+v, want replicate %+v", side, info, want)
		}
		execs[i] = info.Executions
	}
	// Each statement runs on both sides. At each end of the measured
	// phase, a thread of one side may start an event (of 2 statements)
	// just before the deadline that the other's starts just after.
	if d := execs[0] - execs[1]; execs[0] == 0 || d < -8 || d > 8 {
		t.Errorf("executions base %d, candidate %d: want the same, within an event per thread at each end", execs[0], execs[1])
	}
}

// TestABCandidateSlow runs ab with --candidate-slow and the candidate
// omitted: both sides on the test server, each through a proxy of its
// own, the candidate's holding every answer back. What is checked is the
// mechanism (the holding recorded and said, the note naming it), not how
// slow the candidate measured.
func TestABCandidateSlow(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_ab_held")
	if code, _ := runCaptured(t, "prepare", "--dsn", dsn, "--table-size", "200", "-q"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	out := t.TempDir()
	jsonOut := filepath.Join(out, "ab.json")
	code, _, stderr := runCapturedAll(t, "ab", "--base", dsn, "--candidate-slow", "50%", "-s", "simple_inner_pk",
		"--table-size", "200", "--threads", "1", "--time", "1s", "--rounds", "2", "--warmup", "200ms", "--run-id", "held",
		"--out", out, "--format", "json", "-o", jsonOut)
	b, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatalf("ab: exit %d, %v\n%s", code, err, stderr)
	}
	var c compare.Comparison
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	for i, side := range []string{results.SideBase, results.SideCandidate} {
		info := results.ReadRunInfo(filepath.Join(out, "ab=held", "side="+side, "run=held-"+side), func(err error) { t.Error(err) })
		if info == nil || info.Replicate == nil || info.Replicate.HeldBack != []float64{0, 0.5}[i] || info.Executions == 0 {
			t.Fatalf("%s: run.json %+v", side, info)
		}
	}
	notes := strings.Join(c.Notes, "\n")
	if strings.Contains(notes, "an A/A comparison, where") || !strings.Contains(notes, "held back 50% of their server's time on purpose") {
		t.Errorf("notes %q: want the holding back named, and no A/A", c.Notes)
	}
	// The proxy never delivers early, so it held at least what it was asked.
	var realised float64
	i := strings.Index(stderr, "were held back ")
	if i < 0 {
		t.Fatalf("ab said %q: want the share held back", stderr)
	}
	if _, err := fmt.Sscanf(stderr[i:], "were held back %f%%", &realised); err != nil || realised < 50 {
		t.Errorf("ab said %q: want the share held back, at least 50%%", stderr[i:])
	}
}
