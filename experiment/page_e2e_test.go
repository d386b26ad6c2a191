//go:build e2e

package experiment

import (
	"image"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testbrowser"
	"github.com/joinbench/joinbench/results"
)

// lessonPages are a page of every lesson, each drawn from a run written
// with the project's own writer or from the values its lesson measures.
func lessonPages(t *testing.T) []*Page {
	warn := func(err error) { t.Log(err) }
	dir := writeSlowRun(t, t.TempDir(), results.ActionOK)
	wins, err := report.ActionWindows(dir, report.QuietOptions{}, warn)
	if err != nil || len(wins) != 2 {
		t.Fatalf("%d windows, %v", len(wins), err)
	}
	info, series := results.ReadRunInfo(dir, warn), readRunSeries(dir, warn)
	slow := slowNodePage(Options{Node: "node3", Percents: []float64{20}, Resource: "io", Window: 5 * time.Second}, wins, info, series)
	slow.Lesson = "slow-node"
	rows, _ := results.ReadActions(dir, warn)
	dose := dosePage(Options{Node: "node3", Percents: []float64{0, 20}, Resource: "io", Repetitions: 1}, throttledWindows([]float64{0, 20}, wins, rows), info, series)
	dose.Lesson = "slow-node-dose"

	mb := int64(48_000_000)
	w0, w1 := wins[0], wins[1]
	ddl := methodsPage("ddl-methods: t", "w", []methodCost{
		{name: "TOI", outcome: "ok", stallNode: 2000, before: 300, during: 150, diskBytes: &mb, series: series, window: &w0},
		{name: "RSU", outcome: "ok", stallNode: 300, before: 300, during: 280, series: series, window: &w1}})
	ddl.Lesson = "ddl-methods"
	chunked := methodsPage("chunked-dml: t", "w", []methodCost{{name: "single", outcome: "ok", before: 300, during: 150, series: series, window: &w0}})
	chunked.Lesson = "chunked-dml"

	hot := hotUniformPage(Options{WritePercents: []int{0, 50}}, []mixResult{
		{writePercent: 0, uniform: []float64{100, 110, 105}, hot: []float64{200, 230, 210}},
		{writePercent: 50, uniform: []float64{100, 104, 98}, hot: []float64{120, 118, 125}}})
	hot.Lesson = "hot-vs-uniform"

	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	crash := results.RecoveryTimeline([]results.Action{
		{Action: 1, Step: 1, Kind: "crash", Spec: "50s@all: crash", Node: "node1", Start: at(40), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(40), StartedTime: at(44), WritableTime: at(46), SyncedTime: at(46), Method: "bootstrap"}},
		{Action: 1, Step: 2, Kind: "crash", Spec: "50s@all: crash", Node: "node2", Start: at(40), Outcome: "ok",
			Recovery: &results.Recovery{ClusterSize: 3, KilledTime: at(40), StartedTime: at(47), TransferStartTime: at(48), TransferEndTime: at(53),
				WritableTime: at(54), SyncedTime: at(55), Method: "sst"}},
	})
	rec := recoveryPage(Options{Node: "node3"}, 3, stall.Recoveries(crash), nil)
	rec.Lesson = "recovery"

	r := sandbox.Restore{Node: "node3", UseMemory: "100M", BackupStart: at(0), BackupEnd: at(5), PrepareStart: at(5), PrepareEnd: at(7), CopyStart: at(7), CopyEnd: at(8)}
	r.Join.Synced, r.Join.Transfer = at(12), "ist"
	restored := restorePage(Options{Node: "node3"}, []restoreResult{{useMemory: "100M", restores: []sandbox.Restore{r}}, {useMemory: "2G", restores: []sandbox.Restore{r}}})
	restored.Lesson = "restore"
	return []*Page{slow, dose, ddl, chunked, hot, rec, restored}
}

// TestLessonPagesInChromium opens every lesson's page in headless
// Chromium: each must lay out every picture it holds with a size (the
// page's script counts them) and draw them (its screenshot holds the
// pictures' colours).
func TestLessonPagesInChromium(t *testing.T) {
	chromium := testbrowser.Chromium(t, "the lesson pages")
	out := t.TempDir()
	for _, p := range lessonPages(t) {
		t.Run(p.Lesson, func(t *testing.T) {
			if len(p.Figures) == 0 {
				t.Fatal("the page has no picture")
			}
			svgs := 0
			for _, f := range p.Figures {
				svgs += strings.Count(string(f.SVG), "<svg ")
			}
			paths, err := p.Write(out)
			if err != nil {
				t.Fatal(err)
			}
			page := paths[0]
			if filepath.Ext(page) != ".html" {
				page = paths[1]
			}
			dom, log := testbrowser.DumpDOM(t, chromium, page)
			m := regexp.MustCompile(`data-figures="([^"]*)"`).FindStringSubmatch(dom)
			if m == nil || m[1] != strconv.Itoa(svgs) {
				t.Errorf("the browser laid out %q pictures with a size, want %d; stderr:\n%s", m, svgs, log)
			}
			img, shot := testbrowser.Screenshot(t, chromium, page, 1100, 2400)
			if keep := os.Getenv("JOINBENCH_KEEP_SHOT"); keep != "" {
				b, _ := os.ReadFile(shot)
				_ = os.WriteFile(filepath.Join(keep, p.Lesson+".png"), b, 0o644)
			}
			// The pictures' own colours: the nodes' lines, the restore's
			// and the recovery's phases, the forest's rows.
			want := map[string][3]uint8{"slow-node": {0x2b, 0x6c, 0xb0}, "slow-node-dose": {0x2b, 0x6c, 0xb0}, "ddl-methods": {0xdd, 0x6b, 0x20},
				"chunked-dml": {0x2f, 0x85, 0x5a}, "hot-vs-uniform": {0x2b, 0x6c, 0xb0}, "recovery": {0xc5, 0x30, 0x30}, "restore": {0xc5, 0x30, 0x30}}[p.Lesson]
			if n := pixelsNear(img, want); n < 30 {
				t.Errorf("the screenshot has %d pixels of the pictures' colour #%02x%02x%02x: not drawn", n, want[0], want[1], want[2])
			}
		})
	}
}

// pixelsNear counts the pixels of img within a small distance of the colour c.
func pixelsNear(img image.Image, c [3]uint8) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			d := abs(int(r>>8)-int(c[0])) + abs(int(g>>8)-int(c[1])) + abs(int(bl>>8)-int(c[2]))
			if d <= 24 {
				n++
			}
		}
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
