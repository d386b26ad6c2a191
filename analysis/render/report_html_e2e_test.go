//go:build e2e

package render

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/internal/testbrowser"
)

// TestHTMLInChromium loads the HTML report in headless Chromium: the
// script must run (it stamps the body) and the charts must draw.
func TestHTMLInChromium(t *testing.T) {
	dir := reportFixture().Write(t, t.TempDir())
	rep, err := report.Build([]string{dir}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := Report(&page, rep, FormatHTML); err != nil {
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
	// whole run: throughput, latency, p95 by scenario, errors and
	// retries; 3 counters; per scenario 4
	if n := strings.Count(html, "<svg class=\"chart\""); n != 4+3+3*4 {
		t.Errorf("%d charts", n)
	}
	out := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(out, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("JOINBENCH_KEEP_HTML") != "" {
		_ = os.WriteFile(os.Getenv("JOINBENCH_KEEP_HTML"), page.Bytes(), 0o644)
	}

	chromium := testbrowser.Chromium(t, "the HTML report")
	dom, log := testbrowser.DumpDOM(t, chromium, out)
	if !strings.Contains(dom, `data-ready="charts:19"`) {
		t.Errorf("the page's script did not run to the end (no data-ready marker); stderr:\n%s", log)
	}

	// Anchors are named after scenarios, charts read on hover, the
	// slowest executions and the errors panel are there, and a run
	// without Galera has no flow control heading.
	for _, want := range []string{`id="simple_inner_index"`, `href="#simple_inner_index"`, `id="multilevel_inner_pk"`,
		"<title>", "p50: ", "p99: ", `class="slow"`, `class="errs"`, "Errors and retries", "latency: p50, p95, p99"} {
		if !strings.Contains(dom, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	for _, bad := range []string{`id="r0-s0"`, "Flow control"} {
		if strings.Contains(dom, bad) {
			t.Errorf("page has %s", bad)
		}
	}

	img, shot := testbrowser.Screenshot(t, chromium, out, 1200, 1600)
	if os.Getenv("JOINBENCH_KEEP_SHOT") != "" {
		b, _ := os.ReadFile(shot)
		_ = os.WriteFile(os.Getenv("JOINBENCH_KEEP_SHOT"), b, 0o644)
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
