package sqlcompat

import (
	"sort"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// Syntax is the family whose constructs Rewrite rewrites.
type Syntax int

const (
	// MySQL rewrites the constructs MySQL 8 and MariaDB both accept.
	MySQL Syntax = iota
	// MariaDB rewrites MariaDB's own constructs too.
	MariaDB
)

// Match is one construct found and rewritten.
type Match struct {
	*Construct
	// Start and End delimit the construct's text in the text given, for
	// a message to point at.
	Start, End int
}

// Result is a rewritten text.
type Result struct {
	// Text is the text with every construct rewritten.
	Text string
	// Matches are the constructs rewritten, in order of their offset.
	Matches []Match
	edits   []edit // applied, in order, with their offset in Text
}

// edit replaces src[start:end] with repl; at is where repl starts in the
// rewritten text, once applied.
type edit struct {
	start, end int
	repl       string
	at         int
}

// Rewrite rewrites every construct of the family s (MySQL: those both
// families accept; MariaDB: all) found in text. It returns nil when it
// finds none. text may hold several statements separated by `;`.
func Rewrite(text string, s Syntax) *Result {
	r := &rewriter{src: text, syntax: s, toks: significant(text)}
	for _, st := range r.statements() {
		for _, f := range finders {
			f(r, st)
		}
	}
	if len(r.found) == 0 {
		return nil
	}
	return r.apply()
}

// Origin maps an offset of the rewritten text to the text given: an
// offset in inserted or replaced text of another length maps to where
// the replaced text starts (an inserted bracket, to the token it
// precedes); any other offset to the same byte.
func (r *Result) Origin(off int) int {
	i := sort.Search(len(r.edits), func(i int) bool { return r.edits[i].at > off }) - 1
	if i < 0 {
		return off
	}
	e := r.edits[i]
	if off < e.at+len(e.repl) {
		if len(e.repl) == e.end-e.start {
			return e.start + off - e.at
		}
		return e.start
	}
	return e.end + off - (e.at + len(e.repl))
}

// Has reports whether the rewrite removed or changed the construct c.
func (r *Result) Has(c *Construct) bool {
	for _, m := range r.Matches {
		if m.Construct == c {
			return true
		}
	}
	return false
}

// WritesFile reports whether the rewrite removed an INTO OUTFILE or INTO
// DUMPFILE: the statement writes a file, though the rewritten text does
// not say so.
func (r *Result) WritesFile() bool {
	for _, m := range r.Matches {
		if m.WritesFile {
			return true
		}
	}
	return false
}

// tok is a token other than white space and comments, with its text in
// lower case.
type tok struct {
	sqllex.Token
	low string
}

func significant(src string) []tok {
	var out []tok
	sc := sqllex.NewScanner(src, 0)
	for t := sc.NextNonSpace(); t.Kind != sqllex.EOF; t = sc.NextNonSpace() {
		switch t.Kind {
		case sqllex.Space, sqllex.LineComment, sqllex.BlockComment, sqllex.ExecStart, sqllex.ExecEnd:
			continue
		}
		out = append(out, tok{t, strings.ToLower(t.Text(src))})
	}
	return out
}

// found is a construct and the edits that rewrite it.
type found struct {
	c          *Construct
	start, end int
	edits      []edit
}

type rewriter struct {
	src    string
	syntax Syntax
	toks   []tok
	found  []found
}

// finders look for one construct each in a statement's tokens.
var finders = []func(r *rewriter, st stmt){
	limitRowsExamined, offsetFetch, matchAgainst, valuesWithoutRow, percentile, into,
	likeExpression, returning, reservedNames, windowOffset, multiUpdateLimit,
	havingWithoutTable, cycleRestrict, valueFunction, escapeExpression, naturalJoin,
	castType, excludeNoOthers, aliasEquals, dynamicColumns, lastValueList, portionOf,
	charsetIntroducer,
}

// stmt is the tokens of one statement.
type stmt []tok

func (r *rewriter) statements() []stmt {
	var out []stmt
	from := 0
	for i, t := range r.toks {
		if t.low == ";" {
			if i > from {
				out = append(out, stmt(r.toks[from:i]))
			}
			from = i + 1
		}
	}
	if from < len(r.toks) {
		out = append(out, stmt(r.toks[from:]))
	}
	return out
}

// at is the lower-case text of st[i], "" out of range.
func (st stmt) at(i int) string {
	if i < 0 || i >= len(st) {
		return ""
	}
	return st[i].low
}

// closing returns the index of the bracket that closes the one at st[i],
// or the last index when it is not closed.
func (st stmt) closing(i int) int {
	for j := range st.level(i+1, len(st)) {
		if st[j].low == ")" {
			return j
		}
	}
	return len(st) - 1
}

// word reports whether st[i] is an unquoted word.
func (st stmt) word(i int) bool { return i >= 0 && i < len(st) && st[i].Kind == sqllex.Word }

// name reports whether st[i] is a word or a quoted identifier.
func (st stmt) name(i int) bool {
	return i >= 0 && i < len(st) && (st[i].Kind == sqllex.Word || st[i].Kind == sqllex.QuotedIdent)
}

// add records a construct found at src[start:end] and its edits, when
// the rewrite targets its family.
func (r *rewriter) add(c *Construct, start, end int, edits ...edit) {
	if c.MariaDB && r.syntax != MariaDB || len(edits) == 0 {
		return
	}
	r.found = append(r.found, found{c, start, end, edits})
}

// blank replaces src[start:end] with spaces, keeping line breaks, so that
// what follows keeps its line and column.
func (r *rewriter) blank(start, end int) edit {
	b := []byte(r.src[start:end])
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
	return edit{start: start, end: end, repl: string(b)}
}

// insert puts s before src[off].
func insert(off int, s string) edit { return edit{start: off, end: off, repl: s} }

// replace puts s, padded with spaces to the length it replaces when
// shorter, in place of src[start:end].
func replace(start, end int, s string) edit {
	if n := end - start - len(s); n > 0 {
		s += strings.Repeat(" ", n)
	}
	return edit{start: start, end: end, repl: s}
}

// apply makes the edits of every construct found, leaving out a
// construct whose edits overlap those of one found before it.
func (r *rewriter) apply() *Result {
	var edits []edit
	res := &Result{}
	for _, f := range r.found {
		if overlaps(edits, f.edits) {
			continue
		}
		edits = append(edits, f.edits...)
		res.Matches = append(res.Matches, Match{f.c, f.start, f.end})
	}
	// by offset; an insertion before a replacement at the same offset
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].start != edits[j].start {
			return edits[i].start < edits[j].start
		}
		return edits[i].end == edits[i].start && edits[j].end > edits[j].start
	})
	sort.SliceStable(res.Matches, func(i, j int) bool { return res.Matches[i].Start < res.Matches[j].Start })
	var b strings.Builder
	last := 0
	for i := range edits {
		e := &edits[i]
		b.WriteString(r.src[last:e.start])
		e.at = b.Len()
		b.WriteString(e.repl)
		last = e.end
	}
	b.WriteString(r.src[last:])
	res.Text, res.edits = b.String(), edits
	return res
}

// overlaps reports whether an edit of b replaces text an edit of a
// replaces too (insertions at one offset do not overlap).
func overlaps(a, b []edit) bool {
	for _, x := range a {
		for _, y := range b {
			if x.start < y.end && y.start < x.end {
				return true
			}
		}
	}
	return false
}
