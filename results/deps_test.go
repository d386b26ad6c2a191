package results

import (
	"slices"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/depcheck"
)

// The format of result files is a leaf: the engine writes it, the analysis
// reads it, and neither a measurement model (work, explain) nor the engine
// or the analysis may come in through it, so that a new column never
// reaches beyond the row type it belongs to.
func TestResultsImportOnlyLeaves(t *testing.T) {
	const mod = "github.com/joinbench/joinbench/"
	allowed := []string{mod + "results", mod + "internal/flavor", mod + "internal/parallel", mod + "internal/usage"}
	for _, dep := range depcheck.Deps(t, mod+"results") {
		if strings.HasPrefix(dep, mod) && !slices.Contains(allowed, dep) {
			t.Errorf("results depends on %s; it may import only %s", dep, strings.Join(allowed[1:], ", "))
		}
	}
	if bad := depcheck.ServerLinks(t, mod+"results"); len(bad) > 0 {
		t.Errorf("results links %s", strings.Join(bad, ", "))
	}
}
