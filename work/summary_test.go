package work

import (
	"testing"

	"github.com/joinbench/joinbench/results"
)

// The regression of the issue: level1 loses idx_parent_id, and the line
// says which tables changed and how.
func TestDescribeDroppedIndex(t *testing.T) {
	before := Summarize([]*results.Work{parseFile(t, "simple_inner_index")})
	after := Summarize([]*results.Work{parseFile(t, "simple_inner_index_no_idx_parent_id")})
	got := Describe(before, after)
	want := "m: 2,857 → 6,600 rows/exec: ref on comp_attributes → eq_ref on PRIMARY; " +
		"level1: 7,544 → 6,600 rows/exec: ref on idx_parent_id with rowid filter on idx_record_status → range on idx_record_status"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// The rowid filter read 6,600 index entries before: the rows examined
	// grow by a quarter only, the page requests double.
	if r := after.RowsExamined / before.RowsExamined; r < 1.25 || r > 1.3 {
		t.Errorf("rows examined ratio %.3f", r)
	}
	if r := after.Pages / before.Pages; r < 2 || r > 2.1 {
		t.Errorf("pages ratio %.3f", r)
	}
	if before.Lookups != 2858 || after.Lookups != 6601 {
		t.Errorf("lookups %v → %v, want 2858 → 6601", before.Lookups, after.Lookups)
	}
	bnl := Summarize([]*results.Work{parseFile(t, "simple_left_index_no_idx_parent_id")})
	if got, want := Describe(Summarize([]*results.Work{parseFile(t, "simple_left_index")}), bnl),
		"level1: 963 → 20,000 rows/exec: ref on idx_parent_id → ALL (BNL join buffer, 57,140,000 rows compared)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDescribeSameWork(t *testing.T) {
	a := Summarize([]*results.Work{parseFile(t, "multilevel_inner_index")})
	if got := Describe(a, a); got != "" {
		t.Errorf("same work described as %q", got)
	}
}

func TestSummarizeMeans(t *testing.T) {
	w1 := &results.Work{RowsExamined: Counter(10), Tables: []results.WorkTable{{SelectID: 1, Name: "t", Access: "ref", Key: "k", Loops: 2, Rows: 6}}}
	w2 := &results.Work{RowsExamined: Counter(20), Tables: []results.WorkTable{{SelectID: 1, Name: "t", Access: "ref", Key: "k", Loops: 4, Rows: 12}}}
	s := Summarize([]*results.Work{w1, w2})
	if s.Samples != 2 || s.RowsExamined != 15 || !s.HasRowsExamined || s.HasPages || s.Lookups != 3 ||
		len(s.Tables) != 1 || s.Tables[0].Rows != 9 || s.Tables[0].Loops != 3 {
		t.Errorf("%+v", s)
	}
	if s := Summarize(nil); s.Samples != 0 || s.HasRowsExamined {
		t.Errorf("empty: %+v", s)
	}
}

func TestFormatCount(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 1: "1", 0.33: "0.3", 944: "944", 6720: "6,720", 20000: "20,000", 1234567.4: "1,234,567", 12.6: "13"} {
		if got := FormatCount(v); got != want {
			t.Errorf("FormatCount(%v) = %q, want %q", v, got, want)
		}
	}
}
