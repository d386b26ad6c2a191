package analyzer

import (
	"sort"

	"github.com/joinbench/joinbench/corpus"
)

// FixFile applies the suggested fixes of every finding that is not
// suppressed, re-analysing until nothing more changes (a fix may reveal
// another, as with a RIGHT JOIN inside a derived table that a fix moved).
// It returns the new text and the number of edits applied.
func FixFile(path, src string, opts *Options) (string, int) {
	sc, err := ReadScenario(path, src)
	if err != nil {
		return src, 0 // the file's mistake has no fix
	}
	return FixScenario(sc, opts)
}

// FixScenario is FixFile for a scenario the corpus loader read: each
// round re-reads the edited text as the loader would, with the scenario's
// corpus lists. A round whose text no longer loads ends the fixing.
func FixScenario(sc *corpus.Scenario, opts *Options) (string, int) {
	src, total := sc.Source, 0
	for round := 0; round < 10; round++ {
		var fixes []SuggestedFix
		for _, d := range AnalyzeScenario(sc, opts) {
			for _, f := range d.Fixes {
				if f.Unsafe && (opts == nil || !opts.UnsafeFixes) {
					continue
				}
				fixes = append(fixes, f)
			}
		}
		out, n := ApplyEdits(src, wholeFixes(fixes))
		if n == 0 {
			break
		}
		next, err := sc.Reparse([]byte(out))
		if err != nil {
			break
		}
		sc, src, total = next, out, total+n
	}
	return src, total
}

// wholeFixes returns the edits of the fixes that can be applied together:
// a fix is taken whole or not at all (half a fix, such as a condition
// added to WHERE but not removed from ON, would change the statement), and
// one that overlaps a fix taken before it waits for the next round.
func wholeFixes(fixes []SuggestedFix) []TextEdit {
	var taken []TextEdit
	overlaps := func(e TextEdit) bool {
		for _, t := range taken {
			if t == e {
				continue
			}
			if e.Start < t.End && t.Start < e.End || e.Start == e.End && e.Start > t.Start && e.Start < t.End ||
				t.Start == t.End && t.Start > e.Start && t.Start < e.End {
				return true
			}
		}
		return false
	}
	for _, f := range fixes {
		ok := true
		for _, e := range f.Edits {
			if overlaps(e) {
				ok = false
				break
			}
		}
		if ok {
			taken = append(taken, f.Edits...)
		}
	}
	return taken
}

// ApplyEdits applies non-overlapping edits (identical duplicates once; of
// overlapping ones, the earliest and outermost wins and the rest wait for
// the next round).
func ApplyEdits(src string, edits []TextEdit) (string, int) {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].Start != edits[j].Start {
			return edits[i].Start < edits[j].Start
		}
		return edits[i].End > edits[j].End
	})
	var kept []TextEdit
	end := -1
	for _, e := range edits {
		if e.Start < 0 || e.End > len(src) || e.Start > e.End {
			continue
		}
		if len(kept) > 0 && kept[len(kept)-1] == e {
			continue
		}
		if e.Start < end {
			continue
		}
		if src[e.Start:e.End] == e.NewText {
			continue
		}
		kept = append(kept, e)
		end = e.End
	}
	if len(kept) == 0 {
		return src, 0
	}
	var b []byte
	last := 0
	for _, e := range kept {
		b = append(b, src[last:e.Start]...)
		b = append(b, e.NewText...)
		last = e.End
	}
	b = append(b, src[last:]...)
	return string(b), len(kept)
}
