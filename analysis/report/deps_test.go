package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/depcheck"
)

const mod = "github.com/joinbench/joinbench/"

// The analysis packages, and the models and storage format they read.
var offline = []string{mod + "analysis/report", mod + "analysis/judge", mod + "analysis/compare", mod + "analysis/render", mod + "analysis/render/plot",
	mod + "analysis/stats", mod + "analysis/metrics", mod + "analysis/stall", mod + "results", mod + "work", mod + "explain"}

// Reading results, judging, rendering and parsing plans happen offline:
// none of these packages links database/sql or a driver. Capturing plans
// is explain/capture's, and the engine's.
func TestOfflinePackagesLinkNoDriver(t *testing.T) {
	if bad := depcheck.ServerLinks(t, offline...); len(bad) > 0 {
		t.Errorf("%s must not depend on %s", strings.Join(offline, ", "), strings.Join(bad, ", "))
	}
	// The check itself sees database/sql where it is.
	if bad := depcheck.ServerLinks(t, mod+"explain/capture"); len(bad) == 0 {
		t.Error("explain/capture links no database/sql: the dependency check does not work")
	}
}

// The analysis reads result files; it must not link the engine that
// writes them (replay and the packages under it).
func TestOfflinePackagesLinkNoEngine(t *testing.T) {
	for _, dep := range depcheck.Deps(t, offline...) {
		if dep == mod+"replay" || strings.HasPrefix(dep, mod+"replay/") {
			t.Errorf("%s must not depend on the engine's %s", strings.Join(offline, ", "), dep)
		}
	}
	// The check itself sees the engine where it is.
	if !slices.Contains(depcheck.Deps(t, mod+"replay/ab"), mod+"replay") {
		t.Error("replay/ab does not list replay among its dependencies: the dependency check does not work")
	}
}
