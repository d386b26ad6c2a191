package analyzer

import (
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // value expressions for the parser

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqlcompat"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// unit is one file under analysis: its source, its tokens, the text handed
// to the SQL parser (placeholders substituted) with the mapping back to the
// source, the parsed statements and the name resolution.
type unit struct {
	path     string
	src      string
	sc       *corpus.Scenario // nil for a plain SQL file
	body     int              // offset of the statement text in src
	toks     []Token          // tokens of the statement text, offsets in src
	depth    []int            // each token's parenthesis depth
	comments []Comment        // every comment in src, header included
	lines    *sqllex.Lines    // line starts, for positions

	text string // parse text
	segs []segment
	// rw is the rewrite of the parse text the parser read when it
	// rejected the text itself (compat.go): the statements' positions
	// are offsets in rw.Text. Nil when the text parsed as it is.
	rw       *sqlcompat.Result
	stmts    []ast.StmtNode
	parseErr *SyntaxError

	schema *ddl.Schema
	opts   *Options
	rules  []*Analyzer // opts.rules(), worked out once

	hints []*HintComment
	refs  []*TableRef // table factors found in the token stream, in source order
	joins []*JoinSpan // joins found in the token stream
	res   *Resolution // nil when the text did not parse
}

// segment maps a run of the parse text to the source. Unchanged runs have
// equal lengths; a substituted placeholder maps to its whole `{{name}}`.
type segment struct {
	textOff, srcOff, textLen, srcLen int
}

func newUnit(path, src string, sc *corpus.Scenario, schema *ddl.Schema, opts *Options) *unit {
	return newUnitWith(nil, path, src, sc, schema, opts)
}

// newUnitWith is newUnit parsing with p, a parser the caller owns and
// does not use again until it is done with the unit (nil: a new one).
func newUnitWith(p *parser.Parser, path, src string, sc *corpus.Scenario, schema *ddl.Schema, opts *Options) *unit {
	return newUnitIn(&scratch{p: p}, path, src, sc, schema, opts)
}

// newUnitIn is newUnit with w's parser (nil: a new one) and buffers,
// which the caller does not use again until it is done with the unit.
func newUnitIn(w *scratch, path, src string, sc *corpus.Scenario, schema *ddl.Schema, opts *Options) *unit {
	w.lines.Reset(src)
	u := &unit{path: path, src: src, sc: sc, schema: schema, opts: opts, rules: w.rulesOf(opts), lines: &w.lines, segs: w.segs[:0]}
	if sc != nil {
		u.body = sc.BodyOffset
		if u.body < 0 || u.body > len(src) {
			u.body = 0
		}
	}
	u.comments = headerComments(src, u.body)
	toks, comments := tokenize(src, u.body, len(src), w.toks)
	u.toks = toks
	u.comments = append(u.comments, comments...)
	for i := range u.toks {
		if u.toks[i].Kind == TokPlaceholder {
			if s, ok := u.tableParamSubst(u.toks[i].Word); ok {
				u.toks[i].Word = s
			}
		}
	}
	u.depth = tokenDepths(u.toks, w.depth)
	u.refs, u.joins = scanFrom(u)
	u.buildText()
	p := w.p
	if p == nil {
		p = parser.New()
	}
	u.parse(p)
	u.hints = parseHints(u)
	if u.stmts != nil {
		cols := w.cols
		if cols == nil {
			cols = map[*ast.ColumnNameExpr]*ColRef{}
		} else {
			clear(cols)
		}
		w.cols = nil // the unit's until the caller is done with it
		u.res = resolve(u, cols)
	}
	return u
}

// param returns the declared parameter called name, or nil.
func (u *unit) param(name string) *corpus.Param {
	if u.sc == nil {
		return nil
	}
	return u.sc.Param(name)
}

// tableParamSubst returns the table name a table parameter stands for in
// the parse text: the first table of its family in the schema.
func (u *unit) tableParamSubst(name string) (string, bool) {
	p := u.param(name)
	if p == nil || p.Kind != corpus.KindTable {
		return "", false
	}
	fam := name
	if len(p.Args) > 0 {
		fam = p.Args[0]
	}
	if ts := familyTables(u.schema, fam); len(ts) > 0 {
		return ts[0].Name, true
	}
	return fam, true
}

// uses returns the placeholder uses of the statement text as the corpus
// found them (none inside comments), in order.
func (u *unit) uses() []corpus.Use {
	if u.sc == nil {
		return nil
	}
	return u.sc.Uses
}

// buildText substitutes every placeholder of the statement text: table
// parameters by the table's name, values by `?` (by the parameter's name
// inside hint comments, which cannot hold markers).
func (u *unit) buildText() {
	var b strings.Builder
	b.Grow(len(u.src) - u.body + 16)
	last := u.body
	for _, use := range u.uses() {
		if use.Start < last || use.End > len(u.src) {
			continue
		}
		name := UseName(u.src, use)
		if use.Start > last {
			u.segs = append(u.segs, segment{b.Len(), last, use.Start - last, use.Start - last})
			b.WriteString(u.src[last:use.Start])
		}
		repl := "?"
		if s, ok := u.tableParamSubst(name); ok {
			repl = quoteIdentIfNeeded(s)
		} else if u.inHint(use.Start) || u.isTablePos(use.Start) {
			repl = name
		}
		u.segs = append(u.segs, segment{b.Len(), use.Start, len(repl), use.End - use.Start})
		b.WriteString(repl)
		last = use.End
	}
	if last < len(u.src) {
		u.segs = append(u.segs, segment{b.Len(), last, len(u.src) - last, len(u.src) - last})
		b.WriteString(u.src[last:])
	}
	u.text = b.String()
}

func (u *unit) inHint(off int) bool {
	for _, t := range u.toks {
		if t.Kind == TokHint && off >= t.Start && off < t.End {
			return true
		}
		if t.Start > off {
			break
		}
	}
	return false
}

func (u *unit) isTablePos(off int) bool {
	for _, r := range u.refs {
		if r.NameTok != nil && r.NameTok.Start == off {
			return true
		}
	}
	return false
}

func quoteIdentIfNeeded(s string) string {
	for i := 0; i < len(s); i++ {
		if !sqllex.IsWordByte(s[i]) {
			return "`" + strings.ReplaceAll(s, "`", "``") + "`"
		}
	}
	return s
}

// srcOffset maps an offset in the text the parser read (the parse text,
// or its rewrite) to one in the source.
func (u *unit) srcOffset(textOff int) int {
	if u.rw != nil {
		textOff = u.rw.Origin(textOff)
	}
	return u.textSrcOffset(textOff)
}

// textSrcOffset maps an offset in the parse text to one in the source.
func (u *unit) textSrcOffset(textOff int) int {
	i := sort.Search(len(u.segs), func(i int) bool { return u.segs[i].textOff+u.segs[i].textLen > textOff })
	if i == len(u.segs) {
		return len(u.src)
	}
	s := u.segs[i]
	if s.textLen != s.srcLen {
		return s.srcOff
	}
	return s.srcOff + textOff - s.textOff
}

// position converts a source offset to a 1-based line and byte column.
func (u *unit) position(off int) (line, col int) { return u.lines.Position(off) }
