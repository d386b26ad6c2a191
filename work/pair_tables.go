package work

// TablePair is one table's summary on each side of a comparison; a side
// that did not read the table has only its select id and name.
type TablePair struct {
	Base, Candidate TableSummary
}

// PairTables pairs the tables of two summaries, base order first. A table
// pairs with the same (select id, name) on the other side; one without
// such a counterpart pairs by name alone when its name is unique on both
// sides, so that a table that moved into a derived table's query block
// (derived_merge off) reads as one table whose access changed, not as one
// table gone and another come.
func PairTables(base, cand []TableSummary) []TablePair {
	count := func(ts []TableSummary, name string) int {
		n := 0
		for _, t := range ts {
			if t.Name == name {
				n++
			}
		}
		return n
	}
	exact := func(ts []TableSummary, t TableSummary) int {
		for i, o := range ts {
			if o.SelectID == t.SelectID && o.Name == t.Name {
				return i
			}
		}
		return -1
	}
	byName := func(ts []TableSummary, t TableSummary) int {
		for i, o := range ts {
			if o.Name == t.Name {
				return i
			}
		}
		return -1
	}
	usedCand := make([]bool, len(cand))
	var out []TablePair
	for _, b := range base {
		i := exact(cand, b)
		if i < 0 && count(base, b.Name) == 1 && count(cand, b.Name) == 1 {
			if j := byName(cand, b); j >= 0 && exact(base, cand[j]) < 0 {
				i = j
			}
		}
		p := TablePair{Base: b, Candidate: TableSummary{SelectID: b.SelectID, Name: b.Name}}
		if i >= 0 && !usedCand[i] {
			usedCand[i] = true
			p.Candidate = cand[i]
		}
		out = append(out, p)
	}
	for i, c := range cand {
		if !usedCand[i] {
			out = append(out, TablePair{Base: TableSummary{SelectID: c.SelectID, Name: c.Name}, Candidate: c})
		}
	}
	return out
}
