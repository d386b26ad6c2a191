package report

import "testing"

// TestTopLimit: the LIMIT of a statement's outer query, which cuts the
// rows whose checksums a comparison weighs; none for a LIMIT inside.
func TestTopLimit(t *testing.T) {
	for q, want := range map[string]int64{"SELECT 1 LIMIT 5": 5, "SELECT 1 LIMIT 10, 20;": 20, "select 1 limit 7 offset 3\n": 7,
		"SELECT * FROM (SELECT 1 LIMIT 3) d": 0, "SELECT 1": 0} {
		if got := topLimit(q); got != want {
			t.Errorf("topLimit(%q) = %d, want %d", q, got, want)
		}
	}
}
