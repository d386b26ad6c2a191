package report

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay/internal/fixture"
	"github.com/joinbench/joinbench/replay/results"
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
	rep, err := Build([]string{dir}, Options{})
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
	if err := rep.Write(&js, FormatJSON); err != nil {
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
	if err := rep.Write(&txt, FormatText); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"simple_inner_index  ", "multilevel_inner_pk: 1205 x12", "Index lookup on level1", "(all)"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
}

// TestReadRobust: several hosts' files are read together; a truncated
// file and an empty one are skipped with warnings; parents and globs find
// runs.
func TestReadRobust(t *testing.T) {
	parent := t.TempDir()
	f := fixture.Run{ID: "r2", Hosts: 3, Execs: fixture.Gen(12, 3, fixture.Scen{Name: "a", N: 900, MedianMs: 1})}
	dir := f.Write(t, parent)
	b, err := os.ReadFile(filepath.Join(dir, "executions-client0-0.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "executions-client9-0.parquet"), b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "executions-client8-0.parquet"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	(&fixture.Run{ID: "r3", Execs: fixture.Gen(13, 3, fixture.Scen{Name: "a", N: 10, MedianMs: 1})}).Write(t, parent)

	runs, err := results.FindRuns([]string{parent})
	if err != nil || len(runs) != 2 || filepath.Base(runs[0]) != "run=r2" {
		t.Fatalf("FindRuns(parent) = %v, %v", runs, err)
	}
	if runs, err := results.FindRuns([]string{filepath.Join(parent, "run=r*"), dir}); err != nil || len(runs) != 2 {
		t.Fatalf("FindRuns(glob) = %v, %v", runs, err)
	}
	if _, err := results.FindRuns([]string{filepath.Join(parent, "nope")}); err == nil {
		t.Error("missing folder accepted")
	}
	if _, err := results.FindRuns([]string{t.TempDir()}); err == nil {
		t.Error("folder without runs accepted")
	}

	var warned []string
	rep, err := Build([]string{dir}, Options{Warn: func(err error) { warned = append(warned, err.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	rr := rep.Runs[0]
	if rr.Files != 3 || rr.Total.Executions != 900 {
		t.Errorf("read %d files, %d executions; want 3 and 900", rr.Files, rr.Total.Executions)
	}
	if len(warned) != 2 || !strings.Contains(strings.Join(warned, "\n"), "client9") || !strings.Contains(strings.Join(warned, "\n"), "empty") {
		t.Errorf("warnings %q", warned)
	}
	if len(rr.Warnings) != 2 {
		t.Errorf("report warnings %q", rr.Warnings)
	}
}

// TestHTMLInChromium loads the HTML report in headless Chromium: the
// script must run (it stamps the body) and the charts must draw.
func TestHTMLInChromium(t *testing.T) {
	dir := reportFixture().Write(t, t.TempDir())
	rep, err := Build([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := rep.Write(&page, FormatHTML); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	for _, bad := range []string{"http://", "https://"} {
		for _, line := range strings.Split(html, "\n") {
			if strings.Contains(line, bad) && !strings.Contains(line, "http://www.w3.org/2000/svg") {
				t.Errorf("page refers to the network: %s", line)
			}
		}
	}
	if n := strings.Count(html, "<svg class=\"chart\""); n != 2+3+3*4 {
		t.Errorf("%d charts", n)
	}
	out := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(out, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("JOINBENCH_KEEP_HTML") != "" {
		_ = os.WriteFile(os.Getenv("JOINBENCH_KEEP_HTML"), page.Bytes(), 0o644)
	}

	chromium := ""
	for _, c := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(c); err == nil {
			chromium = p
			break
		}
	}
	if chromium == "" {
		testdb.Skipf(t, "chromium is not installed: the HTML report was not checked in a browser (apt-get install chromium)")
	}
	args := func(extra ...string) []string {
		return append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir(),
			"--enable-logging=stderr", "--v=0"}, extra...)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(chromium, args("--dump-dom", "file://"+out)...)
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "Uncaught") {
		t.Errorf("script error:\n%s", stderr.String())
	}
	if !strings.Contains(string(dom), `data-ready="charts:17"`) {
		t.Errorf("the page's script did not run to the end (no data-ready marker); stderr:\n%s", stderr.String())
	}

	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd = exec.Command(chromium, args("--screenshot="+shot, "--window-size=1200,1600", "--hide-scrollbars", "file://"+out)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, b)
	}
	if os.Getenv("JOINBENCH_KEEP_SHOT") != "" {
		b, _ := os.ReadFile(shot)
		_ = os.WriteFile(os.Getenv("JOINBENCH_KEEP_SHOT"), b, 0o644)
	}
	fh, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatal(err)
	}
	colors, inked := imageStats(img)
	if colors < 20 || inked < 0.02 {
		t.Errorf("screenshot looks empty: %d colours, %.1f%% non-white", colors, inked*100)
	}
}

func imageStats(img image.Image) (colors int, inked float64) {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	non := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				non++
			}
		}
	}
	total := ((b.Dx() + 1) / 2) * ((b.Dy() + 1) / 2)
	return len(seen), float64(non) / float64(max(total, 1))
}
