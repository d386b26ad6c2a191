package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/analyzer/rules"
)

// TestSARIFRegionsHaveEnds: code scanning underlines the finding's text.
func TestSARIFRegionsHaveEnds(t *testing.T) {
	src := "-- scenario: r\n-- param m: table(main)\nSELECT m.nosuch FROM {{m}} AS m;\n"
	diags := analyzer.AnalyzeFile("r.sql", src, &analyzer.Options{Rules: rules.All(), Schema: analyzertest.Schema()})
	var b bytes.Buffer
	if err := WriteSARIF(&b, diags, Options{Rules: rules.All(), Version: "test"}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID != rules.UnknownColumn.Name {
			continue
		}
		found = true
		got := r.Locations[0].PhysicalLocation.Region
		if got.StartLine != 3 || got.StartColumn != 8 || got.EndLine != 3 || got.EndColumn != 16 {
			t.Errorf("region %+v, want 3:8-3:16 (m.nosuch)", got)
		}
	}
	if !found {
		t.Fatalf("no unknown-column result in\n%s", b.String())
	}
	if !strings.Contains(b.String(), `"endColumn"`) {
		t.Error("no endColumn in the SARIF log")
	}
}
