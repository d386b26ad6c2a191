package depcheck

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// ServerLinks returns the dependencies of pkgs that can talk to a server:
// database/sql, a MySQL driver, or the progress bar of the commands that
// load a server. database/sql/driver is not one: it only declares
// interfaces, and comes in through the Parquet library's dependencies.
// Without a go command to list them with, the test is skipped.
func ServerLinks(t testing.TB, pkgs ...string) []string {
	t.Helper()
	var bad []string
	for _, dep := range Deps(t, pkgs...) {
		if dep == "database/sql" || strings.HasPrefix(dep, "github.com/go-sql-driver/") || strings.HasPrefix(dep, "github.com/schollz/progressbar/") {
			bad = append(bad, dep)
		}
	}
	return slices.Compact(bad)
}

// Deps returns the packages pkgs depend on, themselves included, as
// `go list -deps` lists them. Without a go command to list them with, the
// test is skipped.
func Deps(t testing.TB, pkgs ...string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list dependencies with: %v", err)
	}
	out, err := exec.Command(gobin, append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", strings.Join(pkgs, " "), err)
	}
	return strings.Fields(string(out))
}
