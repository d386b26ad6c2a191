package depcheck

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/joinbench/joinbench/"

// arrows are the imports allowed between the top-level folders (the
// buildings of ARCHITECTURE.md), by the folder or package imported: an
// entry allows that path and everything under it. Any other arrow fails
// TestLayout, so that the map and the code cannot drift apart; a new
// top-level folder gets its line here and in ARCHITECTURE.md.
var arrows = map[string][]string{
	"cmd":        {"*"},
	"analyzer":   {"corpus", "ddl", "explain", "internal"},
	"corpus":     {"ddl", "internal"},
	"ingest":     {"corpus", "ddl", "internal"},
	"ddl":        {"internal"},
	"explain":    {"internal/flavor"},
	"experiment": {"analysis", "ddl", "internal", "replay", "results"},
	// The engine links two small reducers of the analysis, so that the
	// live summary and report agree to the digit; nothing else of it.
	"replay":  {"analysis/metrics", "analysis/stall", "corpus", "ddl", "explain", "internal", "results", "work"},
	"results": {"internal/flavor", "internal/parallel", "internal/usage"},
	"work":    {"explain", "internal/flavor", "results"},
	// The analysis reads result files: never the engine, nor a server.
	"analysis": {"explain", "internal/flavor", "internal/parallel", "results", "work"},
	"bench":    {"analysis/stats", "results"},
	"deploy":   {}, // its tests only: the image and manifests
	// promexport serves a run's live state (replay.Live).
	"internal": {"internal", "replay"},
}

// building is the top-level folder of a package path within the module.
func building(rel string) string {
	b, _, _ := strings.Cut(rel, "/")
	return b
}

func allowed(from, to string) bool {
	for _, a := range arrows[building(from)] {
		if a == "*" || to == a || strings.HasPrefix(to, a+"/") {
			return true
		}
	}
	return false
}

// TestLayout: every import between top-level folders is an allowed arrow.
func TestLayout(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list imports with: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		from := strings.TrimPrefix(fields[0], module)
		if _, ok := arrows[building(from)]; !ok {
			t.Errorf("%s: the top-level folder %s has no line in the layout's arrows (layout_test.go, ARCHITECTURE.md)", from, building(from))
			continue
		}
		for _, imp := range fields[1:] {
			to, ok := strings.CutPrefix(imp, module)
			if !ok || building(to) == building(from) {
				continue
			}
			seen++
			if !allowed(from, to) {
				t.Errorf("%s imports %s: not an arrow of the layout (layout_test.go, ARCHITECTURE.md)", from, to)
			}
		}
	}
	if seen == 0 {
		t.Error("no import between top-level folders seen: the listing does not work")
	}
}

// The check sees a forbidden arrow where there would be one.
func TestLayoutForbids(t *testing.T) {
	for _, bad := range [][2]string{{"analysis/report", "replay"}, {"results", "work"}, {"replay", "analysis/report"},
		{"results", "internal/server"}, {"corpus", "analyzer"}} {
		if allowed(bad[0], bad[1]) {
			t.Errorf("%s -> %s is allowed", bad[0], bad[1])
		}
	}
	if !slices.Contains(arrows["cmd"], "*") || !allowed("replay/action", "internal/throttle") {
		t.Error("allowed arrows refused")
	}
}
