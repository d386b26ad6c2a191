package report

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// offlineDeps returns the dependencies of pkgs that can talk to a server:
// database/sql, a MySQL driver, or the progress bar of the commands that
// load a server. database/sql/driver is not one: it only declares
// interfaces, and comes in through the Parquet library's dependencies.
func offlineDeps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list dependencies with: %v", err)
	}
	out, err := exec.Command(gobin, append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", strings.Join(pkgs, " "), err)
	}
	var bad []string
	for _, dep := range strings.Fields(string(out)) {
		if dep == "database/sql" || strings.HasPrefix(dep, "github.com/go-sql-driver/") || strings.HasPrefix(dep, "github.com/schollz/progressbar/") {
			bad = append(bad, dep)
		}
	}
	return slices.Compact(bad)
}

// Reading results, judging, rendering and parsing plans happen offline:
// none of these packages links database/sql or a driver. Capturing plans
// is explain/capture's, and the engine's.
func TestOfflinePackagesLinkNoDriver(t *testing.T) {
	const mod = "github.com/joinbench/joinbench/"
	offline := []string{mod + "replay/report", mod + "replay/compare", mod + "replay/render", mod + "replay/render/plot",
		mod + "replay/stats", mod + "replay/metrics", mod + "explain"}
	if bad := offlineDeps(t, offline...); len(bad) > 0 {
		t.Errorf("%s must not depend on %s", strings.Join(offline, ", "), strings.Join(bad, ", "))
	}
	// The check itself sees database/sql where it is.
	if bad := offlineDeps(t, mod+"explain/capture"); len(bad) == 0 {
		t.Error("explain/capture links no database/sql: the dependency check does not work")
	}
}
