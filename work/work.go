package work

import "github.com/joinbench/joinbench/results"

// Counter is a pointer to n, for the optional counters of results.Work.
func Counter(n int64) *int64 { return &n }

// Value is the counter's value and whether it is known.
func Value(c *int64) (int64, bool) {
	if c == nil {
		return 0, false
	}
	return *c, true
}

// sumTables sets RowsExamined and Pages from the tables: the rows of every
// access of a base table (not of an internal temporary table, named in angle
// brackets), and the pages of those that have them.
func sumTables(w *results.Work) {
	var rows, pages int64
	hasPages := false
	for _, t := range w.Tables {
		if isTemporary(t.Name) {
			continue
		}
		rows += t.Rows
		if t.Pages != nil {
			pages += *t.Pages
			hasPages = true
		}
	}
	w.RowsExamined = Counter(rows)
	if hasPages {
		w.Pages = Counter(pages)
	}
}

func isTemporary(name string) bool { return len(name) > 0 && name[0] == '<' }
