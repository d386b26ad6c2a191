package analyzer

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/depcheck"
)

// TestLayout keeps the analyzer laid out as go/analysis is: the
// framework knows no rule, driver or output; the rules know the framework
// alone; the outputs know no rule or driver; and none of them links a
// driver (a live server comes in through analyzer/liveplan).
func TestLayout(t *testing.T) {
	const mod = "github.com/joinbench/joinbench/analyzer"
	forbidden := map[string][]string{
		mod:             {mod + "/rules", mod + "/lint", mod + "/output", mod + "/liveplan"},
		mod + "/rules":  {mod + "/lint", mod + "/output", mod + "/liveplan"},
		mod + "/output": {mod + "/rules", mod + "/lint", mod + "/liveplan"},
		mod + "/lint":   {mod + "/output", mod + "/liveplan"},
	}
	for pkg, bad := range forbidden {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Skipf("go list: %v", err)
		}
		deps := map[string]bool{}
		for _, d := range strings.Fields(string(out)) {
			deps[d] = true
		}
		for _, b := range bad {
			if deps[b] {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
		if links := depcheck.ServerLinks(t, pkg); len(links) > 0 {
			t.Errorf("%s links %s", pkg, strings.Join(links, ", "))
		}
	}
	if len(depcheck.ServerLinks(t, mod+"/liveplan")) == 0 {
		t.Error("analyzer/liveplan links no driver: the dependency check does not work")
	}
}
