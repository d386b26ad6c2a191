package ddl

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/depcheck"
)

// The schema model, and the packages of the offline commands (lint, list,
// show) built on it, link no driver: talking to a server is ddl/load's.
func TestOfflinePackagesLinkNoDriver(t *testing.T) {
	const mod = "github.com/joinbench/joinbench/"
	if bad := depcheck.ServerLinks(t, mod+"ddl", mod+"corpus", mod+"analyzer"); len(bad) > 0 {
		t.Errorf("ddl, corpus and analyzer must not depend on %s", strings.Join(bad, ", "))
	}
	// The check itself sees the driver where it is.
	if bad := depcheck.ServerLinks(t, mod+"ddl/load"); len(bad) == 0 {
		t.Error("ddl/load links no driver: the dependency check does not work")
	}
}
