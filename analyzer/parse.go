package analyzer

import (
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/internal/sqlcompat"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// syntaxError is why the statement text could not be read, as a finding:
// where in the source, and the message.
type SyntaxError struct {
	Offset int // in src
	End    int // end of the rejected token in src; 0 when unknown
	Msg    string
	// textOff is where the parser stopped in the parse text (never in a
	// rewrite of it).
	textOff int
	// unchecked marks text the targeted server reads, at a construct
	// this analyzer cannot parse: rule not-checked reports it, not rule
	// syntax.
	Unchecked bool
	// serverRead marks text the live server's parser read
	// (server_parse.go): rule server-parsed reports it.
	ServerRead bool
	// construct names the syntax the analyzer lacks, when it knows it.
	construct string
}

var tidbPos = regexp.MustCompile(`line (\d+) column (\d+) near "`)

func (u *unit) parse(p *parser.Parser) {
	if !hasSQL(u.text) {
		u.parseErr = &SyntaxError{Offset: u.body, Msg: "no SQL statement"}
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
	u.parseErr = u.syntaxError(u.text, nil, err)
	u.parseRewritten(p)
	u.askedServer()
}

// syntaxError turns the parser's error on text, the parse text or its
// rewrite rw, into a position in the source and a message.
func (u *unit) syntaxError(text string, rw *sqlcompat.Result, err error) *SyntaxError {
	origin := func(off int) int {
		if rw != nil {
			return rw.Origin(off)
		}
		return off
	}
	msg := err.Error()
	off := len(text)
	if m := tidbPos.FindStringSubmatchIndex(msg); m != nil {
		line, _ := strconv.Atoi(msg[m[2]:m[3]])
		col, _ := strconv.Atoi(msg[m[4]:m[5]])
		off = textOffset(text, line, col)
		near := strings.TrimSuffix(strings.TrimSpace(msg[m[1]:]), `"`)
		if near == "" {
			return u.syntaxErrorAtEnd(origin(len(text)))
		}
		// The parser's column is where its scanner stopped, past the
		// token it rejected; the quoted text starts at that token.
		start := origin(tokenStartNear(text, off, near))
		e := u.syntaxErrorAt(u.textSrcOffset(start))
		e.textOff = start
		return e
	} else if i := strings.LastIndex(msg, "]"); i >= 0 && strings.HasPrefix(msg, "[") {
		msg = strings.TrimSpace(msg[i+1:])
	}
	t := origin(off)
	return &SyntaxError{Offset: u.textSrcOffset(t), Msg: msg, textOff: t}
}

// syntaxErrorAtEnd is the error of a statement that stops short: at its
// last token, or at a reserved word the statement ends with.
func (u *unit) syntaxErrorAtEnd(textOff int) *SyntaxError {
	const msg = "syntax error at end of statement"
	n := len(u.toks)
	if n == 0 {
		return &SyntaxError{Offset: u.textSrcOffset(textOff), Msg: msg, textOff: textOff}
	}
	if e := u.reservedWordError(u.toks[n-1], nil); e != nil {
		e.textOff = textOff
		return e
	}
	return &SyntaxError{Offset: u.toks[n-1].End, Msg: msg, textOff: textOff}
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

// keywords are words that are never a misspelling of another keyword,
// though they look like one (ORDER and OUTER, WHEN and WHERE).
var keywords = map[string]bool{"WHEN": true, "THEN": true, "ELSE": true, "CASE": true, "INTO": true,
	"WITH": true, "OVER": true, "UNION": true, "VALUES": true, "EXISTS": true, "BETWEEN": true, "LIKE": true}

func init() {
	for _, kw := range misspelt {
		keywords[kw] = true
	}
}

// syntaxErrorAt builds the error for a rejected token at source offset
// off, quoting the file's own text (placeholders as written). When the
// word before it looks like a misspelt keyword the parser read as an
// alias (FROM t JION level1), or is a reserved word used as a name
// (SELECT rank FROM t), the error points at that word.
func (u *unit) syntaxErrorAt(off int) *SyntaxError {
	i := sort.Search(len(u.toks), func(i int) bool { return u.toks[i].Start >= off })
	var next *Token
	if i < len(u.toks) {
		next = &u.toks[i]
	}
	e := &SyntaxError{Offset: off, Msg: "syntax error near " + strconv.Quote(u.quoteSource(off))}
	if next != nil && next.Start == off {
		e.End = next.End
	}
	if i > 0 && i <= len(u.toks) {
		prev := u.toks[i-1]
		if re := u.reservedWordError(prev, next); re != nil {
			return re
		}
		// the parser took the misspelt keyword for an alias and stopped
		// at the word after it
		if next != nil && next.Kind == TokIdent {
			if me := u.misspeltError(prev); me != nil {
				return me
			}
		}
		if (prev.Is("ORDER") || prev.Is("GROUP")) && next != nil && !next.Is("BY") {
			e.Msg += ": " + prev.Text + " must be followed by BY"
			return e
		}
	}
	if next != nil && next.Start == off {
		var after *Token
		if i+1 < len(u.toks) {
			after = &u.toks[i+1]
		}
		if re := u.reservedWordError(*next, after); re != nil {
			return re
		}
		if me := u.misspeltError(*next); me != nil {
			return me
		}
	}
	return e
}

// misspeltError is the error at a word that looks like a misspelt
// keyword (JION, WERE), or nil.
func (u *unit) misspeltError(w Token) *SyntaxError {
	if w.Kind != TokIdent || w.Quoted || len(w.Word) < 4 || keywords[w.Word] {
		return nil
	}
	for _, kw := range misspelt {
		if d := editDistance(w.Word, kw); d > 0 && d <= 2 {
			return &SyntaxError{Offset: w.Start, End: w.End,
				Msg: "syntax error near " + strconv.Quote(u.quoteSource(w.Start)) + ": " + w.Text + " is not a keyword; did you mean " + kw + "?"}
		}
	}
	return nil
}

// reservedWords are words the TiDB parser reserves that a statement may
// mean as a name: window functions' names and the words of window
// clauses. True marks those MariaDB takes as names and MySQL 8 reserves.
var reservedWords = map[string]bool{"RANK": true, "DENSE_RANK": true, "LEAD": true, "LAG": true,
	"NTILE": true, "FIRST_VALUE": true, "LAST_VALUE": true, "NTH_VALUE": true, "CUME_DIST": true,
	"PERCENT_RANK": true, "WINDOW": true, "GROUPS": true, "ROW": true, "ROW_NUMBER": false, "OVER": false}

// reservedWordError is the error for a reserved word used as a name (a
// window function's name without its bracket): the parser stops at the
// token after it, but the word is the mistake.
func (u *unit) reservedWordError(word Token, next *Token) *SyntaxError {
	mariadbName, ok := reservedWords[word.Word]
	if !ok || word.Kind != TokIdent || word.Quoted || next != nil && next.Punct("(") {
		return nil
	}
	msg := "syntax error near " + strconv.Quote(u.quoteSource(word.Start)) + ": " + word.Text + " is a reserved word"
	if mariadbName {
		msg += " in MySQL 8 (MariaDB takes it as a name)"
	}
	return &SyntaxError{Offset: word.Start, End: word.End, Msg: msg + ": write " + sqllex.QuoteIdent(word.Text) + " to use it as a name"}
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
	for t := sc.NextNonSpace(); t.Kind != sqllex.EOF; t = sc.NextNonSpace() {
		if !t.Kind.IsSpaceOrComment() && t.Kind != sqllex.ExecStart && t.Kind != sqllex.ExecEnd {
			return true
		}
	}
	return false
}
