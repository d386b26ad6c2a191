package results

import (
	"strings"
	"testing"
)

// TestRecordScenarioSQL: run.json records the scenarios' texts in the
// order given while they fit, so that the last run.json fits in the space
// set aside for it.
func TestRecordScenarioSQL(t *testing.T) {
	var r Run
	r.RecordScenarioSQL([]string{"a", "b"}, []string{"SELECT 1", "SELECT {{x}}"})
	if len(r.ScenarioSQL) != 2 || r.ScenarioSQL["b"] != "SELECT {{x}}" {
		t.Errorf("recorded %q", r.ScenarioSQL)
	}
	big := strings.Repeat("x", MaxScenarioSQL/3+1)
	var l Run
	l.RecordScenarioSQL([]string{"a", "b", "c", "d", "e"}, []string{big, big, big, "SELECT 1", "SELECT 2"})
	if len(l.ScenarioSQL) != 2 || l.ScenarioSQL["c"] != "" || l.ScenarioSQL["d"] != "" {
		t.Errorf("recorded %d texts past the bound", len(l.ScenarioSQL))
	}
	if MaxScenarioSQL >= reserveSize {
		t.Errorf("the texts alone may not fit in the space set aside for run.json")
	}
}
