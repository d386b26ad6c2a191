package ddl

import (
	"os/exec"
	"strings"
	"testing"
)

// linksServer lists the packages whose presence among a package's
// dependencies means it can talk to a server.
var linksServer = []string{"database/sql", "github.com/go-sql-driver/", "github.com/schollz/progressbar/"}

// serverDeps returns the dependencies of the packages pkgs that link a
// driver, database/sql or a progress bar.
func serverDeps(t *testing.T, pkgs ...string) []string {
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
		for _, p := range linksServer {
			if strings.HasPrefix(dep, p) {
				bad = append(bad, dep)
				break
			}
		}
	}
	return bad
}

// The schema model, and the packages of the offline commands (lint, list,
// show) built on it, link no driver: talking to a server is ddl/load's.
func TestOfflinePackagesLinkNoDriver(t *testing.T) {
	const mod = "github.com/joinbench/joinbench/"
	if bad := serverDeps(t, mod+"ddl", mod+"corpus", mod+"analyzer"); len(bad) > 0 {
		t.Errorf("ddl, corpus and analyzer must not depend on %s", strings.Join(bad, ", "))
	}
	// The check itself sees the driver where it is.
	if bad := serverDeps(t, mod+"ddl/load"); len(bad) == 0 {
		t.Error("ddl/load links no driver: the dependency check does not work")
	}
}
