package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/joinbench/joinbench/results"
)

// writeRunDir writes a minimal run folder: one scenario whose latency is
// about ms milliseconds.
func writeRunDir(t *testing.T, parent, id string, ms int64) string {
	t.Helper()
	return writeRunDirOf(t, parent, id, ms, "simple_inner_pk")
}

// writeRunDirOf is writeRunDir with 400 executions of each scenario named.
func writeRunDirOf(t *testing.T, parent, id string, ms int64, scenarios ...string) string {
	t.Helper()
	dir := filepath.Join(parent, "run="+id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	var rows []results.Execution
	for _, sc := range scenarios {
		for i := 0; i < 400; i++ {
			rows = append(rows, results.Execution{RunID: id, Scenario: sc, Start: start.Add(time.Duration(i) * 5 * time.Millisecond),
				LatencyNs: ms*1e6 + int64(i%13)*ms*2e4, PlanHash: "p", Params: []string{fmt.Sprint(i % 7)}, Checksum: fmt.Sprint(i % 7)})
		}
	}
	f, err := os.Create(filepath.Join(dir, "executions-h-0.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[results.Execution](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

func TestReportAndCompareCommands(t *testing.T) {
	tmp := t.TempDir()
	base := writeRunDir(t, tmp, "base", 2)
	slow := writeRunDir(t, tmp, "slow", 5)
	out := filepath.Join(tmp, "out")
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"-q", "compare", base, base, "-o", out}, 0},
		{[]string{"-q", "compare", base, slow, "-o", out, "--format", "json"}, 1},
		{[]string{"-q", "compare", base, slow, "-o", out, "--threshold", "200%"}, 0},
		{[]string{"-q", "compare", base, filepath.Join(tmp, "missing")}, 2},
		{[]string{"-q", "compare", base, slow, "--threshold", "lots"}, 2},
		{[]string{"-q", "compare", base, slow, "--format", "html", "-o", filepath.Join(tmp, "compare.html")}, 1},
		{[]string{"-q", "compare", base, slow, "--format", "svg"}, 2},
		{[]string{"-q", "report", tmp, "--format", "html", "-o", out}, 0},
		{[]string{"-q", "report", filepath.Join(tmp, "run=*"), "--format", "markdown", "-o", out}, 0},
		{[]string{"-q", "report", filepath.Join(tmp, "nothing*")}, 2},
	}
	for _, c := range cases {
		if got := run(c.args); got != c.code {
			t.Errorf("joinbench %s: exit %d, want %d", strings.Join(c.args, " "), got, c.code)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "| simple_inner_pk |") {
		t.Errorf("markdown report: %v\n%s", err, b)
	}
	if v, err := parseFraction("12.5%"); err != nil || v != 0.125 {
		t.Errorf("parseFraction(12.5%%) = %v, %v", v, err)
	}
}

// TestCompareGateFailsOnMissingData: a comparison with a side that recorded
// nothing, or scenarios that a side did not measure, must not pass a CI
// gate (issue 12 item 4: "43 only in base", exit 0).
func TestCompareGateFailsOnMissingData(t *testing.T) {
	tmp := t.TempDir()
	good := writeRunDirOf(t, tmp, "good", 2, "simple_inner_pk", "simple_left_pk")
	partial := writeRunDirOf(t, tmp, "partial", 2, "simple_inner_pk")
	grown := writeRunDirOf(t, tmp, "grown", 2, "simple_inner_pk", "simple_left_pk", "simple_right_pk")

	// A run killed before its first executions file was finished: run.json
	// without an end and a partial file.
	crashed := filepath.Join(tmp, "run=crashed")
	if err := os.MkdirAll(crashed, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(crashed, results.RunFile),
		[]byte(`{"run_id":"crashed","start":"2025-03-01T12:00:00Z","server_version":"10.11.6-MariaDB"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(crashed, "executions-h-0.parquet.tmp"), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(tmp, "out")
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"-q", "compare", good, crashed, "-o", out}, 1},
		{[]string{"-q", "compare", crashed, good, "-o", out}, 1},
		{[]string{"-q", "compare", good, crashed, "-o", out, "--allow-missing"}, 1}, // no data at all always fails
		{[]string{"-q", "compare", good, partial, "-o", out}, 1},
		{[]string{"-q", "compare", good, grown, "-o", out}, 1},
		{[]string{"-q", "compare", good, partial, "-o", out, "--allow-missing"}, 0},
		{[]string{"-q", "compare", good, good, "-o", out}, 0},
	}
	for _, c := range cases {
		if got := run(c.args); got != c.code {
			t.Errorf("joinbench %s: exit %d, want %d", strings.Join(c.args, " "), got, c.code)
		}
	}

	if got := run([]string{"-q", "compare", good, partial, "-o", out}); got != 1 {
		t.Fatalf("exit %d", got)
	}
	text, _ := os.ReadFile(out)
	if !strings.Contains(string(text), "verdict:   1 no change, 1 only in base; FAILS: 1 scenario(s) measured on one side only") {
		t.Errorf("the verdict line must say the comparison fails:\n%s", text)
	}

	if got := run([]string{"-q", "compare", good, partial, "-o", out, "--format", "json"}); got != 1 {
		t.Fatalf("exit %d", got)
	}
	var js struct {
		Pass      bool     `json:"pass"`
		Failures  []string `json:"failures"`
		Scenarios []struct {
			Scenario   string `json:"scenario"`
			Verdict    string `json:"verdict"`
			Unmeasured string `json:"unmeasured"`
		} `json:"scenarios"`
	}
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	if js.Pass || len(js.Failures) != 1 || !strings.Contains(js.Failures[0], "measured on one side only") {
		t.Errorf("json pass %v failures %q", js.Pass, js.Failures)
	}
	for _, s := range js.Scenarios {
		if want := map[string]string{"simple_left_pk": "candidate"}[s.Scenario]; s.Unmeasured != want {
			t.Errorf("%s (%s): unmeasured %q, want %q", s.Scenario, s.Verdict, s.Unmeasured, want)
		}
	}
}

// TestPercentageFlags: every percentage flag reads 5% and 0.05 alike, and
// refuses a bare 5 (once read as 500%) as ambiguous, a usage error.
func TestPercentageFlags(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "150%": 1.5, " 12.5 % ": 0.125, "0": 0} {
		if v, err := parseFraction(in); err != nil || math.Abs(v-want) > 1e-12 {
			t.Errorf("parseFraction(%q) = %v, %v; want %v", in, v, err, want)
		}
	}
	for _, in := range []string{"5", "1", "95", "abc", "NaN", "%"} {
		if v, err := parseFraction(in); err == nil {
			t.Errorf("parseFraction(%q) = %v, want an error", in, v)
		}
	}
	tmp := t.TempDir()
	a := writeRunDirOf(t, tmp, "a", 2, "simple_inner_pk")
	for _, args := range [][]string{
		{"compare", a, a, "--threshold", "5"},
		{"compare", a, a, "--noise-floor", "50"},
		{"compare", a, a, "--confidence", "95"},
		{"run", "--work-budget", "1", "-s", "simple_inner_pk"},
	} {
		code, _, out := runCapturedAll(t, args...)
		if code != 2 || !strings.Contains(out, "ambiguous") {
			t.Errorf("joinbench %s: exit %d, want 2 and a line saying it is ambiguous\n%s", strings.Join(args, " "), code, out)
		}
	}
}

// TestCompareRefusesEditedRunFile: a run.json no run writes is refused in
// one line naming it, exit 2, without sizing anything by what it claims.
func TestCompareRefusesEditedRunFile(t *testing.T) {
	tmp := t.TempDir()
	good := writeRunDir(t, tmp, "good", 2)
	for name, runJSON := range map[string]string{
		"billion": `{"run_id":"billion","server_version":"10.11.6","start":"2025-03-01T12:00:00Z","end":"2025-03-01T12:00:02Z",` +
			`"replicate":{"series":"s","side":"candidate","rounds":1000000000,"slice":"1ns"}}`,
		"backwards": `{"run_id":"backwards","server_version":"10.11.6","start":"2025-03-01T12:00:00Z","end":"2025-03-01T11:00:00Z"}`,
		"stripped":  `{"run_id":"stripped"}`,
	} {
		dir := writeRunDir(t, tmp, name, 2)
		if err := os.WriteFile(filepath.Join(dir, results.RunFile), []byte(runJSON), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCapturedAll(t, "compare", good, dir, "-o", filepath.Join(tmp, "out"))
		if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, filepath.Join(dir, results.RunFile)) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line naming the file", name, code, stderr)
		}
	}
}

// TestCalibrationFilesChecked: an unwritable --calibrate path fails before
// ab runs anything (or compare reads anything), and a noise file whose
// figures no calibration writes is refused in one line: exit 2 both.
func TestCalibrationFilesChecked(t *testing.T) {
	tmp := t.TempDir()
	unwritable := filepath.Join(tmp, "no-such-folder", "noise.json")
	for _, args := range [][]string{
		{"ab", "--base", "127.0.0.1:1", "--candidate", "127.0.0.1:2", "--calibrate", unwritable},
		{"compare", writeRunDir(t, tmp, "b", 2), writeRunDir(t, tmp, "c", 2), "--calibrate", unwritable},
		{"compare", filepath.Join(tmp, "run=b"), filepath.Join(tmp, "run=c"), "--calibrate", tmp},
	} {
		code, _, stderr := runCapturedAll(t, args...)
		if code != 2 || !strings.Contains(stderr, "--calibrate "+args[len(args)-1]+": ") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Dir(unwritable)); err == nil {
		t.Error("the check made the folder")
	}
	noise := filepath.Join(tmp, "noise.json")
	if err := os.WriteFile(noise, []byte(`{"joinbench_noise":1,"confidence":0.95,"scenarios":{"simple_inner_pk":`+
		`{"rounds":4,"executions_per_round":100,"median":{"sigma":1e308},"p95":{"sigma":0.1},"single_round":0.1,"aa_median_ratio":1}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCapturedAll(t, "compare", filepath.Join(tmp, "run=b"), filepath.Join(tmp, "run=c"), "--noise-file", noise)
	if code != 2 || !strings.Contains(stderr, "noise file "+noise+": scenario simple_inner_pk: median sigma 1e+308 is not a spread") {
		t.Errorf("sigma 1e308: exit %d\n%s", code, stderr)
	}
}
