package ingest

import (
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// tableRef is a table a statement names: after FROM, JOIN, UPDATE, INTO
// or a comma of a FROM list, with its alias. A derived table has an
// alias and no table.
type tableRef struct {
	schema, table, alias string
	at                   int // index of the token naming it
}

// tableRefs finds the tables of a statement's tokens. It reads the
// grammar only as far as naming tables goes: enough to resolve a column
// compared with a literal, not a parser.
func tableRefs(toks []token) []tableRef {
	var refs []tableRef
	inFrom := false // after FROM, until a keyword ends the list of tables
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == sqllex.Word && (t.text == "from" || t.text == "join" || t.text == "straight_join" && i > 0 && toks[i-1].text != "select" ||
			t.text == "update" && (i == 0 || toks[i-1].text != "key") || t.text == "into"): // not ON DUPLICATE KEY UPDATE
			inFrom = t.text != "into"
		case t.text == "," && inFrom:
		case t.kind == sqllex.Word && isKeyword(t.text) && t.text != "as":
			if t.text != "straight_join" && t.text != "inner" && t.text != "left" && t.text != "right" &&
				t.text != "outer" && t.text != "cross" && t.text != "natural" {
				inFrom = false
			}
			continue
		default:
			continue
		}
		j := i + 1
		if j < len(toks) && toks[j].text == "(" {
			// A derived table, or a parenthesised join: find its alias.
			end := matching(toks, j)
			if end < 0 || end+1 >= len(toks) || toks[end+1].text == "(" {
				continue
			}
			k := end + 1
			if toks[k].text == "as" {
				k++
			}
			if k < len(toks) && isName(toks[k]) {
				refs = append(refs, tableRef{alias: toks[k].text, at: k})
			}
			continue
		}
		if j >= len(toks) || !isName(toks[j]) {
			continue
		}
		ref := tableRef{table: toks[j].text, at: j}
		if j+2 < len(toks) && toks[j+1].text == "." && isName(toks[j+2]) {
			ref.schema, ref.table = ref.table, toks[j+2].text
			j += 2
		}
		k := j + 1
		if k < len(toks) && toks[k].text == "as" {
			k++
		}
		if k < len(toks) && isName(toks[k]) {
			ref.alias = toks[k].text
		}
		refs = append(refs, ref)
	}
	return refs
}

// matching returns the index of the ) that closes the ( at toks[i], or -1.
func matching(toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// isName reports an identifier: a quoted one, or a word that is no keyword.
func isName(t token) bool {
	return t.kind == sqllex.QuotedIdent || t.kind == sqllex.Word && !isKeyword(t.text)
}

// Use is where a slot's values are used: compared with a column, or as
// LIMIT/OFFSET.
type Use struct {
	// Table and Column name the column compared with (the table as the
	// schema has it); empty when it is not found.
	Table  string
	Column *ddl.Column
	// Index reports that the column leads an index of its table.
	Index bool
	// Limit marks a LIMIT or OFFSET count.
	Limit bool
	// Equality marks a value compared with = or <=>, or listed in IN:
	// one that must exist in the column for a row to match.
	Equality bool
	// Name is a name for the placeholder: the column's, "limit", or "".
	Name string
}

// comparisons are the operators after which a literal is a value
// compared with the column before them.
var comparisons = map[string]bool{"=": true, "<": true, ">": true, "<=": true, ">=": true, "<>": true, "!=": true, "<=>": true, "like": true}

// Uses finds what each slot of a shape is compared with, the columns
// looked up in schema (nil: the names only).
func (sh *Shape) Uses(schema *ddl.Schema) []Use {
	uses := make([]Use, len(sh.Slots))
	refs := tableRefs(sh.toks)
	for i, t := range sh.toks {
		if t.slot < 0 {
			continue
		}
		u := &uses[t.slot]
		if p := prevText(sh.toks, i, 1); p == "limit" || p == "offset" || p == "," && prevText(sh.toks, i, 3) == "limit" {
			u.Limit, u.Name = true, "limit"
			continue
		}
		end := columnBefore(sh.toks, i)
		if end < 0 {
			continue
		}
		qual, col := "", sh.toks[end].text
		if end >= 2 && sh.toks[end-1].text == "." && isName(sh.toks[end-2]) {
			qual = sh.toks[end-2].text
		}
		u.Name = col
		op := prevText(sh.toks, i, 1)
		if end > i {
			op = sh.toks[i+1].text
		}
		u.Equality = op == "=" || op == "<=>" || op == "("
		if schema == nil {
			continue
		}
		if tb, c := lookup(schema, refs, qual, col, i); c != nil {
			u.Table, u.Column = tb.Name, c
			u.Index = len(tb.IndexesLedBy(c.Name)) > 0
		}
	}
	return uses
}

// prevText is the text of the token n before toks[i], or "".
func prevText(toks []token, i, n int) string {
	if i-n < 0 {
		return ""
	}
	return toks[i-n].text
}

// columnBefore finds the last token of the column a literal at toks[i]
// is compared with: `col op ?`, `col IN (?)`, `col BETWEEN ? AND ?`,
// `? op col`; -1 when none.
func columnBefore(toks []token, i int) int {
	p := prevText(toks, i, 1)
	switch {
	case comparisons[p] || p == "between":
		if i-2 >= 0 && isName(toks[i-2]) {
			return i - 2
		}
	case p == "(" && prevText(toks, i, 2) == "in":
		if i-3 >= 0 && isName(toks[i-3]) {
			return i - 3
		}
	case p == "and" && i-2 >= 0 && toks[i-2].slot >= 0 && prevText(toks, i, 3) == "between":
		if i-4 >= 0 && isName(toks[i-4]) {
			return i - 4
		}
	}
	if i+2 < len(toks) && comparisons[toks[i+1].text] && isName(toks[i+2]) {
		end := i + 2
		if end+2 < len(toks) && toks[end+1].text == "." && isName(toks[end+2]) {
			end += 2
		}
		return end
	}
	return -1
}

// lookup resolves a column: through its qualifier's table or alias, or,
// unqualified, in the table named last before the use that has it (the
// nearest FROM), else the first that has it.
func lookup(schema *ddl.Schema, refs []tableRef, qual, col string, at int) (*ddl.Table, *ddl.Column) {
	if qual != "" {
		for _, r := range refs {
			if strings.EqualFold(r.alias, qual) || r.alias == "" && strings.EqualFold(r.table, qual) {
				if tb := schema.Table(r.table); tb != nil {
					return tb, tb.Column(col)
				}
				return nil, nil
			}
		}
		if tb := schema.Table(qual); tb != nil {
			return tb, tb.Column(col)
		}
		return nil, nil
	}
	var best *ddl.Table
	for _, r := range refs {
		tb := schema.Table(r.table)
		if tb == nil || tb.Column(col) == nil {
			continue
		}
		if best == nil || r.at < at {
			best = tb
		}
	}
	if best == nil {
		return nil, nil
	}
	return best, best.Column(col)
}
