package analyzer

import (
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // value expressions for the parser

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
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
	toks     []token          // tokens of the statement text, offsets in src
	comments []comment        // every comment in src, header included
	lines    *sqllex.Lines    // line starts, for positions

	text     string // parse text
	segs     []segment
	stmts    []ast.StmtNode
	parseErr *syntaxError

	schema *ddl.Schema
	opts   *Options

	hints []*hintComment
	refs  []*tableRef // table factors found in the token stream, in source order
	joins []*joinSpan // joins found in the token stream
	res   *resolution // nil when the text did not parse
}

// segment maps a run of the parse text to the source. Unchanged runs have
// equal lengths; a substituted placeholder maps to its whole `{{name}}`.
type segment struct {
	textOff, srcOff, textLen, srcLen int
}

type syntaxError struct {
	offset int // in src
	end    int // end of the rejected token in src; 0 when unknown
	msg    string
}

func newUnit(path, src string, sc *corpus.Scenario, schema *ddl.Schema, opts *Options) *unit {
	return newUnitWith(nil, path, src, sc, schema, opts)
}

// newUnitWith is newUnit parsing with p, a parser the caller owns and
// does not use again until it is done with the unit (nil: a new one).
func newUnitWith(p *parser.Parser, path, src string, sc *corpus.Scenario, schema *ddl.Schema, opts *Options) *unit {
	u := &unit{path: path, src: src, sc: sc, schema: schema, opts: opts, lines: sqllex.NewLines(src)}
	if sc != nil {
		u.body = sc.BodyOffset
		if u.body < 0 || u.body > len(src) {
			u.body = 0
		}
	}
	u.comments = headerComments(src, u.body)
	toks, comments := tokenize(src, u.body, len(src))
	u.toks = toks
	u.comments = append(u.comments, comments...)
	for i := range u.toks {
		if u.toks[i].Kind == tokPlaceholder {
			if s, ok := u.tableParamSubst(u.toks[i].Word); ok {
				u.toks[i].Word = s
			}
		}
	}
	u.refs, u.joins = scanFrom(u)
	u.buildText()
	if p == nil {
		p = parser.New()
	}
	u.parse(p)
	u.hints = parseHints(u)
	if u.stmts != nil {
		u.res = resolve(u)
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
		name := useName(u.src, use)
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
		if t.Kind == tokHint && off >= t.Start && off < t.End {
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
		if r.nameTok != nil && r.nameTok.Start == off {
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

// srcOffset maps an offset in the parse text to one in the source.
func (u *unit) srcOffset(textOff int) int {
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

var tidbPos = regexp.MustCompile(`line (\d+) column (\d+) near "`)

func (u *unit) parse(p *parser.Parser) {
	if !hasSQL(u.text) {
		u.parseErr = &syntaxError{offset: u.body, msg: "no SQL statement"}
		return
	}
	// p is the unit's alone while the unit is in use: the nodes of the
	// unit's statements stay in use for the whole analysis, and a
	// parser's next Parse writes into the nodes its last one made
	// (positions of its stale stack entries), so a parser shared through
	// a pool raced with the analysis of the file it parsed before. A
	// worker of AnalyzeAll reuses its parser file after file, which is
	// safe: it parses the next file only once it is done with the last.
	stmts, _, err := parseNoPanic(p, u.text)
	if err == nil {
		u.stmts = stmts
		return
	}
	msg := err.Error()
	off := len(u.text)
	if m := tidbPos.FindStringSubmatchIndex(msg); m != nil {
		line, _ := strconv.Atoi(msg[m[2]:m[3]])
		col, _ := strconv.Atoi(msg[m[4]:m[5]])
		off = textOffset(u.text, line, col)
		near := strings.TrimSuffix(strings.TrimSpace(msg[m[1]:]), `"`)
		if near == "" {
			msg = "syntax error at end of statement"
			if n := len(u.toks); n > 0 {
				u.parseErr = &syntaxError{offset: u.toks[n-1].End, msg: msg}
				return
			}
		} else {
			// The parser's column is where its scanner stopped, past the
			// token it rejected; the quoted text starts at that token.
			start := tokenStartNear(u.text, off, near)
			u.parseErr = u.syntaxErrorAt(u.srcOffset(start))
			return
		}
	} else if i := strings.LastIndex(msg, "]"); i >= 0 && strings.HasPrefix(msg, "[") {
		msg = strings.TrimSpace(msg[i+1:])
	}
	u.parseErr = &syntaxError{offset: u.srcOffset(off), msg: msg}
}

// tokenStartNear returns where the text the parser quotes (near) starts:
// the last occurrence at or before off, or off.
func tokenStartNear(text string, off int, near string) int {
	if i := strings.IndexByte(near, '\n'); i >= 0 {
		near = near[:i]
	}
	near = near[:min(len(near), 40)]
	limit := min(len(text), off+len(near))
	if i := strings.LastIndex(text[:limit], near); i >= 0 && near != "" {
		return i
	}
	return off
}

// misspelt are keywords a misspelling of which the parser takes for an
// alias, rejecting the token after it instead.
var misspelt = []string{"JOIN", "WHERE", "LEFT", "RIGHT", "INNER", "OUTER", "ORDER", "GROUP", "SELECT", "FROM", "LIMIT", "HAVING", "STRAIGHT_JOIN", "USING"}

// syntaxErrorAt builds the error for a rejected token at source offset
// off, quoting the file's own text (placeholders as written). When the
// word before it looks like a misspelt keyword the parser read as an
// alias (FROM t JION level1), the error points at that word.
func (u *unit) syntaxErrorAt(off int) *syntaxError {
	i := sort.Search(len(u.toks), func(i int) bool { return u.toks[i].Start >= off })
	if i > 0 && i <= len(u.toks) {
		prev := u.toks[i-1]
		if prev.Kind == tokIdent && !prev.Quoted && len(prev.Word) >= 4 {
			for _, kw := range misspelt {
				if d := editDistance(prev.Word, kw); d > 0 && d <= 2 && (i < len(u.toks) && u.toks[i].Kind == tokIdent) {
					return &syntaxError{offset: prev.Start, end: prev.End,
						msg: "syntax error near " + strconv.Quote(u.quoteSource(prev.Start)) + ": " + prev.Text + " is not a keyword; did you mean " + kw + "?"}
				}
			}
		}
	}
	e := &syntaxError{offset: off, msg: "syntax error near " + strconv.Quote(u.quoteSource(off))}
	if i < len(u.toks) && u.toks[i].Start == off {
		e.end = u.toks[i].End
	}
	return e
}

// quoteSource returns the file's text from off to the end of its line,
// shortened to 30 bytes.
func (u *unit) quoteSource(off int) string {
	end := off
	for end < len(u.src) && u.src[end] != '\n' && u.src[end] != '\r' {
		end++
	}
	q := u.src[off:end]
	if len(q) > 30 {
		q = q[:30] + "..."
	}
	return q
}

func parseNoPanic(p *parser.Parser, text string) (stmts []ast.StmtNode, warns []error, err error) {
	defer func() {
		if r := recover(); r != nil {
			stmts, err = nil, errors.New("the SQL parser failed on this statement")
		}
	}()
	return p.Parse(text, "", "")
}

func textOffset(text string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	off += col - 1
	if off > len(text) {
		off = len(text)
	}
	if off < 0 {
		off = 0
	}
	return off
}

// hasSQL reports whether s holds more than white space and comments.
func hasSQL(s string) bool {
	sc := sqllex.NewScanner(s, 0)
	for t := sc.Next(); t.Kind != sqllex.EOF; t = sc.Next() {
		if !t.Kind.IsSpaceOrComment() && t.Kind != sqllex.ExecStart && t.Kind != sqllex.ExecEnd {
			return true
		}
	}
	return false
}
