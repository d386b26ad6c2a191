package work

import "testing"

// TestPairTablesMovedIntoDerived: a table read in the outer query block on
// one side and inside a materialized derived table on the other is one
// table whose access changed.
func TestPairTablesMovedIntoDerived(t *testing.T) {
	base := []TableSummary{{SelectID: 1, Name: "m", Access: "ref", Rows: 950}, {SelectID: 1, Name: "level1", Access: "eq_ref", Key: "PRIMARY", Rows: 950}}
	cand := []TableSummary{{SelectID: 1, Name: "<derived2>", Access: "ALL", Rows: 950}, {SelectID: 2, Name: "m", Access: "ref", Rows: 950},
		{SelectID: 3, Name: "level1", Access: "ALL", Rows: 20000}}
	got := PairTables(base, cand)
	if len(got) != 3 {
		t.Fatalf("%d pairs: %+v", len(got), got)
	}
	if p := got[1]; p.Base.Name != "level1" || p.Candidate.Rows != 20000 || p.Base.Rows != 950 {
		t.Errorf("level1 paired as %+v", p)
	}
	if p := got[2]; p.Base.How() != "not read" || p.Candidate.Name != "<derived2>" {
		t.Errorf("the derived table: %+v", p)
	}
	if d := Describe(Summary{RowsExamined: 1900, Tables: base}, Summary{RowsExamined: 21900, Tables: cand}); d != "level1: 950 → 20,000 rows/exec: eq_ref on PRIMARY → ALL" {
		t.Errorf("Describe: %q", d)
	}
}

// TestPairTablesSameNameTwice: a name read twice on a side pairs only by
// query block.
func TestPairTablesSameNameTwice(t *testing.T) {
	base := []TableSummary{{SelectID: 1, Name: "level1", Rows: 1}, {SelectID: 2, Name: "level1", Rows: 2}}
	cand := []TableSummary{{SelectID: 3, Name: "level1", Rows: 3}}
	if got := PairTables(base, cand); len(got) != 3 {
		t.Errorf("%+v", got)
	}
}
