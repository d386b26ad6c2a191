package rules

import (
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/internal/usage"
)

// TestRewriteRightJoinsSyntaxError: a file that does not parse is a usage
// error naming the file, line and column of the mistake, as lint reports it.
func TestRewriteRightJoinsSyntaxError(t *testing.T) {
	src := "-- scenario: bad\n-- count: 1\nSELECT a.id\nFROM level1 a\nRIGHT JOIN level2 b ON a.id = b.id\nWHERE a.id = = 3;\n"
	_, err := RewriteRightJoins("custom/bad.sql", src, &analyzer.Options{Rules: All(), Schema: analyzertest.Schema()})
	if err == nil {
		t.Fatal("no error for a statement that does not parse")
	}
	if want := `custom/bad.sql:6:14: syntax error near "= 3;"`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if !usage.Is(err) {
		t.Errorf("error %q is not a usage error", err)
	}
}
