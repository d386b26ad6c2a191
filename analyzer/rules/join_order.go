package rules

import (
	"strings"

	"github.com/joinbench/joinbench/analyzer"
)

// A join-order hint (JOIN_ORDER, JOIN_PREFIX, LEADING) is judged by what
// it means as well as by what it says: a name it writes as a table's
// name where the table has an alias (the server ignores the hint then)
// still says which table it wants where. hint-unresolved reports the
// name, impossible-join-order an order no server can follow; both
// suggest the same rewrite of the hint, which names every table as the
// server sees it and lists each outer join's preserved side before its
// optional side, so that following one finding never leads into the
// other.

// orderArg is one table a join-order hint lists, as meant.
type OrderArg struct {
	arg analyzer.HintArg
	end int // end of the argument in the source
	// name is how the query block sees the table meant (its alias when it
	// has one); the argument as written when it means none.
	Name string
	// spelling is how the hint should write it: the argument as written,
	// or the alias where it wrote the aliased table's name.
	spelling string
	// byTable marks an argument that wrote the table's name where the
	// table has an alias.
	byTable bool
}

// readOrder reads the tables a hint lists in the query block opened by
// the token at index block. ok is false for a hint it cannot rewrite (a
// query block argument, a db.table name).
func ReadOrder(p *analyzer.Pass, block int, h *analyzer.Hint) (args []OrderArg, ok bool) {
	var refs []*analyzer.TableRef
	for _, r := range p.TableRefs {
		if r.Block == block {
			refs = append(refs, r)
		}
	}
	ok = h.QB == ""
	for _, a := range h.Args {
		oa := OrderArg{arg: a, end: a.Tok.End, Name: a.Text, spelling: p.Source[a.Tok.Start:a.Tok.End]}
		if a.QB != "" || a.Start != a.Tok.Start {
			ok = false
		}
		if findVisible(refs, a.Text) == nil {
			if r := AliasedByName(refs, a.Text); r != nil {
				oa.Name, oa.spelling, oa.byTable = r.Alias, p.Source[r.AliasTok.Start:r.AliasTok.End], true
			}
		}
		args = append(args, oa)
	}
	return args, ok
}

// aliasedByName returns the one table of refs that has an alias and is
// named name, or nil (none, or several: a self-join, whose intent is not
// clear).
func AliasedByName(refs []*analyzer.TableRef, name string) *analyzer.TableRef {
	var found *analyzer.TableRef
	for _, r := range refs {
		if r.Alias != "" && r.AliasTok != nil && strings.EqualFold(r.Name, name) {
			if found != nil {
				return nil
			}
			found = r
		}
	}
	return found
}

func OrderNames(args []OrderArg) []string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a.Name
	}
	return names
}

// possibleOrder returns the hint's argument list rewritten as the server
// can follow it (the names as the query block sees them; each outer
// join's preserved side moved before the first table of its optional
// side, the others keeping their places), the source span it replaces,
// and whether there is such an order. The rewrite is checked: an order
// that would still be impossible is never returned.
func PossibleOrder(p *analyzer.Pass, block int, h *analyzer.Hint, args []OrderArg) (text string, start, end int, ok bool) {
	if len(args) == 0 || p.Names == nil {
		return "", 0, 0, false
	}
	prefix := h.Name != "JOIN_ORDER"
	type entry struct{ name, spelling string }
	order := make([]entry, len(args))
	for i, a := range args {
		order[i] = entry{a.Name, a.spelling}
	}
	names := func() []string {
		out := make([]string, len(order))
		for i, e := range order {
			out[i] = e.name
		}
		return out
	}
	for round := 0; round < 2*len(p.Names.Outer)+2; round++ {
		oj, opt, pres := impossibleOrder(p.Names, block, names(), prefix)
		if oj == nil {
			break
		}
		oi, pi := -1, -1
		for i, e := range order {
			if oi < 0 && strings.EqualFold(e.name, opt) {
				oi = i
			}
			if pi < 0 && strings.EqualFold(e.name, pres) {
				pi = i
			}
		}
		if oi < 0 {
			return "", 0, 0, false
		}
		var moved entry
		if pi < 0 { // a prefix hint that leaves the preserved side out: list it
			spelling := preservedSpelling(p, oj)
			if spelling == "" {
				return "", 0, 0, false
			}
			moved = entry{pres, spelling}
		} else {
			moved = order[pi]
			order = append(order[:pi], order[pi+1:]...)
		}
		order = append(order[:oi], append([]entry{moved}, order[oi:]...)...)
	}
	if oj, _, _ := impossibleOrder(p.Names, block, names(), prefix); oj != nil {
		return "", 0, 0, false
	}
	spellings := make([]string, len(order))
	for i, e := range order {
		spellings[i] = e.spelling
	}
	return strings.Join(spellings, ", "), args[0].arg.Tok.Start, args[len(args)-1].end, true
}

// preservedSpelling is how a hint writes the first table of an outer
// join's preserved side: its alias, else its name as the file writes it
// (a table placeholder stays one).
func preservedSpelling(p *analyzer.Pass, oj *analyzer.OuterJoin) string {
	for _, s := range oj.Preserved {
		r := s.Ref
		switch {
		case r == nil:
		case r.AliasTok != nil:
			return p.Source[r.AliasTok.Start:r.AliasTok.End]
		case r.NameTok != nil:
			return r.NameTok.Text
		}
	}
	return ""
}

// orderFix is the suggested fix that rewrites a join-order hint's
// argument list to text.
func OrderFix(text string, start, end int) analyzer.SuggestedFix {
	return analyzer.SuggestedFix{Message: "list the tables as the server can follow them: " + text,
		Edits: []analyzer.TextEdit{{Start: start, End: end, NewText: text}}}
}
