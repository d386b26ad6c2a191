package analyzer

import (
	"strings"
	"testing"
)

// TestUnitsKeepTheirStatements: the parser hands back its own result
// slice and refills it on its next Parse; a unit must keep its statements
// when the pooled parser goes on to parse another file (lint analyzes
// files concurrently).
func TestUnitsKeepTheirStatements(t *testing.T) {
	a := newUnit("a.sql", "SELECT 1 FROM t1", nil, nil, &Options{})
	b := newUnit("b.sql", "SELECT 2 FROM t2; SELECT 3 FROM t3", nil, nil, &Options{})
	if len(a.stmts) != 1 || len(b.stmts) != 2 {
		t.Fatalf("%d and %d statements", len(a.stmts), len(b.stmts))
	}
	if got := a.stmts[0].Text(); !strings.Contains(got, "t1") {
		t.Errorf("a.sql's statement is now %q", got)
	}
}
