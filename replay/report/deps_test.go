package report

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/depcheck"
)

// Reading results, judging, rendering and parsing plans happen offline:
// none of these packages links database/sql or a driver. Capturing plans
// is explain/capture's, and the engine's.
func TestOfflinePackagesLinkNoDriver(t *testing.T) {
	const mod = "github.com/joinbench/joinbench/"
	offline := []string{mod + "replay/report", mod + "replay/compare", mod + "replay/render", mod + "replay/render/plot",
		mod + "replay/stats", mod + "replay/metrics", mod + "explain"}
	if bad := depcheck.ServerLinks(t, offline...); len(bad) > 0 {
		t.Errorf("%s must not depend on %s", strings.Join(offline, ", "), strings.Join(bad, ", "))
	}
	// The check itself sees database/sql where it is.
	if bad := depcheck.ServerLinks(t, mod+"explain/capture"); len(bad) == 0 {
		t.Error("explain/capture links no database/sql: the dependency check does not work")
	}
}
