package ingest

import "testing"

// TestFilterTablesAndJoins: --tables keeps the statements naming one of
// the tables, --joins-only those reading two tables or more; each
// statement left out is counted under its reason.
func TestFilterTablesAndJoins(t *testing.T) {
	for _, c := range []struct {
		f       Filter
		groups  int
		skipped string
		n       int64
	}{
		{Filter{}, 3, SkipNotJoin, 0},
		{Filter{JoinsOnly: true}, 1, SkipNotJoin, 2},
		{Filter{Tables: []string{"CUSTOMERS"}}, 2, SkipTables, 1},
		{Filter{Tables: []string{"order_items"}}, 0, SkipTables, 3},
	} {
		s := NewSet(&c.f)
		if err := s.ReadFile("testdata/mysql8-general.log", FormatAuto); err != nil {
			t.Fatal(err)
		}
		if g := s.Ranked(true); len(g) != c.groups || s.Skipped[c.skipped] != c.n {
			t.Errorf("%+v: %d groups, skipped %v; want %d groups and %d %q", c.f, len(g), s.Skipped, c.groups, c.n, c.skipped)
		}
	}
}
