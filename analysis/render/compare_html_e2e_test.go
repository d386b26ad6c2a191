//go:build e2e

package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/internal/testbrowser"
	"github.com/joinbench/joinbench/results"
)

// TestCompareHTMLInChromium renders a comparison with a regression whose
// plan changed as the compare view and loads it in headless Chromium: the
// page needs no network, its script runs to the end, the forest plot and
// a distribution chart per scenario draw, the plans are side by side with
// the changed steps marked, and the screenshot is not empty.
func TestCompareHTMLInChromium(t *testing.T) {
	base := fixture.Run{ID: "base", Execs: fixture.Gen(1, 4,
		fixture.Scen{Name: "simple_inner_index", N: 800, MedianMs: 2, Plan: "pi"},
		fixture.Scen{Name: "simple_inner_pk", N: 800, MedianMs: 1, Plan: "pk"},
		fixture.Scen{Name: "simple_left_pk", N: 800, MedianMs: 3, Plan: "pl"}),
		Plans: []results.Plan{fixture.Plan("simple_inner_index", "pi", fixture.TreeIndex)}}
	cand := fixture.Run{ID: "cand", Execs: fixture.Gen(2, 4,
		fixture.Scen{Name: "simple_inner_index", N: 800, MedianMs: 5, Plan: "ps"},
		fixture.Scen{Name: "simple_inner_pk", N: 800, MedianMs: 1, Plan: "pk"},
		fixture.Scen{Name: "simple_left_pk", N: 800, MedianMs: 1, Plan: "pl"}),
		Plans: []results.Plan{fixture.Plan("simple_inner_index", "ps", fixture.TreeScan)}}
	c := compareFixtures(t, base, cand)
	var page bytes.Buffer
	if err := Comparison(&page, c, FormatHTML); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	for _, line := range strings.Split(html, "\n") {
		if (strings.Contains(line, "http://") || strings.Contains(line, "https://")) && !strings.Contains(line, "http://www.w3.org/2000/svg") {
			t.Errorf("page refers to the network: %s", line)
		}
	}
	// the forest plot, and a distribution chart per scenario
	if n := strings.Count(html, `<svg class="chart`); n != 1+3 {
		t.Errorf("%d charts, want 4", n)
	}
	for _, want := range []string{`class="chart forest"`, ">simple_inner_index</text>", `<option value="s0" selected>simple_inner_index — regression`,
		`<td class="chg">`, `<td class="add">`, "latency distribution (CDF)"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	out := filepath.Join(t.TempDir(), "compare.html")
	if err := os.WriteFile(out, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := os.Getenv("JOINBENCH_KEEP_HTML"); p != "" {
		_ = os.WriteFile(p, page.Bytes(), 0o644)
	}
	chromium := testbrowser.Chromium(t, "the compare view")
	dom, log := testbrowser.DumpDOM(t, chromium, out)
	if !strings.Contains(dom, `data-ready="compare:4"`) {
		t.Errorf("the page's script did not run to the end (no data-ready marker); stderr:\n%s", log)
	}
	img, shot := testbrowser.Screenshot(t, chromium, out, 1240, 1800)
	if p := os.Getenv("JOINBENCH_KEEP_SHOT"); p != "" {
		b, _ := os.ReadFile(shot)
		_ = os.WriteFile(p, b, 0o644)
	}
	if colors, inked := imageStats(img); colors < 20 || inked < 0.02 {
		t.Errorf("screenshot looks empty: %d colours, %.1f%% non-white", colors, inked*100)
	}
}
