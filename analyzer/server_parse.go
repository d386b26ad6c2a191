package analyzer

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// With a live server, the server's own parser decides about a statement
// the analyzer cannot read (a syntax error, or not checked): lint sends
// it to the server to prepare, which parses it and executes nothing, and
// the server's verdict replaces the analyzer's. Statements the analyzer
// reads are never sent.

// ServerParser is a live server whose parser lint asks about the
// statements the analyzer cannot read. Package analyzer/liveplan's
// Server implements it.
type ServerParser interface {
	// ParseStatements asks the server to parse each statement, executing
	// nothing, and returns its verdicts in order. An error is a failure
	// of the server as a whole (the connection lost), not a verdict.
	ParseStatements(ctx context.Context, stmts []string) ([]ServerParse, error)
}

// ServerParse is a server parser's verdict on one statement.
type ServerParse struct {
	// Read is whether its parser read the statement: the server gave
	// no error, or one raised after parsing (an unknown table, a write
	// refused in a read-only transaction).
	Read bool
	// Code and Message are the server's error when it did not read the
	// statement.
	Code    int
	Message string
}

// AskServer asks srv's parser about the statements of the files with a
// syntax or not-checked finding in diags, and analyses those files again
// with the verdicts: a statement the server reads is no error (rule
// server-parsed says the analyzer did not check it), one it rejects is a
// syntax error where the server says. It returns diags with those files'
// findings replaced.
func AskServer(ctx context.Context, srv ServerParser, files []File, base *Options, diags []Diagnostic) ([]Diagnostic, error) {
	unread := map[string]bool{}
	for _, d := range diags {
		// the rules that say the analyzer could not read a statement
		if d.Rule == "syntax" || d.Rule == "not-checked" {
			unread[d.Path] = true
		}
	}
	if len(unread) == 0 {
		return diags, nil
	}
	p := parser.New()
	type redo struct {
		f     *File
		opts  *Options
		stmts []stmtText
	}
	var redos []redo
	var texts []string
	index := map[string]int{}
	for i := range files {
		f := &files[i]
		if f.Err != nil || !unread[f.path()] {
			continue
		}
		opts := f.Options
		if opts == nil {
			opts = base
		}
		u := f.unit(p, opts)
		if u == nil || u.parseErr == nil {
			continue
		}
		r := redo{f: f, opts: opts, stmts: u.statementTexts()}
		for _, st := range r.stmts {
			if _, ok := index[st.text]; !ok {
				index[st.text] = len(texts)
				texts = append(texts, st.text)
			}
		}
		redos = append(redos, r)
	}
	if len(texts) == 0 {
		return diags, nil
	}
	verdicts, err := srv.ParseStatements(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("ask the server's parser: %w", err)
	}
	if len(verdicts) != len(texts) {
		return nil, fmt.Errorf("ask the server's parser: %d verdicts for %d statements", len(verdicts), len(texts))
	}
	again := map[string][]Diagnostic{}
	for _, r := range redos {
		o := *r.opts
		o.serverParse = map[string]ServerParse{}
		for _, st := range r.stmts {
			o.serverParse[st.text] = verdicts[index[st.text]]
		}
		again[r.f.path()] = r.f.analyze(&scratch{p: p}, &o)
	}
	out := diags[:0:0]
	for _, d := range diags {
		if _, ok := again[d.Path]; !ok {
			out = append(out, d)
		}
	}
	for _, ds := range again {
		out = append(out, ds...)
	}
	sortDiagnostics(out)
	return out, nil
}

// path is the file's path in findings.
func (f *File) path() string {
	if f.Scenario != nil && f.Err == nil {
		return f.Scenario.Path
	}
	return f.Path
}

// unit builds the file's unit as analyze does, or nil for a file its
// loader rejected.
func (f *File) unit(p *parser.Parser, opts *Options) *unit {
	switch {
	case f.Err != nil:
		return nil
	case f.Scenario != nil:
		return newUnitWith(p, f.Scenario.Path, f.Scenario.Source, f.Scenario, opts.Schema, opts)
	}
	sc, err := ReadScenario(f.Path, f.Source)
	if err != nil {
		return nil
	}
	return newUnitWith(p, f.Path, f.Source, sc, opts.Schema, opts)
}

// stmtText is one statement of the parse text, as a run sends it: tables
// substituted, values as ? markers.
type stmtText struct {
	text  string
	start int // in the parse text
}

// statementTexts cuts the parse text at its `;`.
func (u *unit) statementTexts() []stmtText {
	var out []stmtText
	add := func(start, end int) {
		if t := strings.TrimSpace(u.text[start:end]); hasSQL(t) {
			out = append(out, stmtText{t, start + strings.Index(u.text[start:end], t)})
		}
	}
	from := 0
	sc := sqllex.NewScanner(u.text, 0)
	for t := sc.NextNonSpace(); t.Kind != sqllex.EOF; t = sc.NextNonSpace() {
		if t.Kind == sqllex.Punct && u.text[t.Start] == ';' {
			add(from, t.Start)
			from = t.End
		}
	}
	add(from, len(u.text))
	return out
}

// askedServer replaces the analyzer's verdict on text it cannot read by
// the server's, when the server was asked (Options.serverParse).
func (u *unit) askedServer() {
	if u.opts == nil || u.opts.serverParse == nil || u.parseErr == nil {
		return
	}
	for _, st := range u.statementTexts() {
		v, ok := u.opts.serverParse[st.text]
		if !ok {
			return // not asked: the analyzer's verdict stands
		}
		if !v.Read {
			u.parseErr = u.serverSyntaxError(st, v)
			return
		}
	}
	msg := "only the server's parser read this statement: the analyzer cannot parse it, so no rule checked it"
	if c := u.parseErr.construct; c != "" {
		msg = "only the server's parser read this statement (" + c + "): no rule of the analyzer checked it"
	}
	u.parseErr = &SyntaxError{Offset: u.parseErr.Offset, End: u.parseErr.End, textOff: u.parseErr.textOff, ServerRead: true, Msg: msg}
}

// serverNear is where MySQL's and MariaDB's parse errors say the
// statement went wrong.
var serverNear = regexp.MustCompile(`(?s)near '(.*)' at line (\d+)$`)

// serverSyntaxError is the error of a statement the server's parser
// rejected, at the position its message gives.
func (u *unit) serverSyntaxError(st stmtText, v ServerParse) *SyntaxError {
	suffix := " (the server's parser rejects it: error " + strconv.Itoa(v.Code) + ")"
	m := serverNear.FindStringSubmatch(v.Message)
	if m == nil {
		return &SyntaxError{Offset: u.textSrcOffset(st.start), textOff: st.start,
			Msg: "the server's parser rejects this statement: " + v.Message + " (error " + strconv.Itoa(v.Code) + ")"}
	}
	near := m[1]
	line, _ := strconv.Atoi(m[2])
	off := st.start + nearOffset(st.text, near, line)
	if near == "" {
		e := u.syntaxErrorAtEnd(off)
		e.Msg += suffix
		return e
	}
	e := u.syntaxErrorAt(u.textSrcOffset(off))
	e.textOff = off
	e.Msg += suffix
	return e
}

// nearOffset finds in text the start of near, the rest of the statement
// from where the server's parser stopped, on its 1-based line; the end of
// the text when near is empty.
func nearOffset(text, near string, line int) int {
	if near == "" {
		return len(strings.TrimRight(text, " \t\r\n;"))
	}
	start := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			break
		}
		start += i + 1
	}
	if i := strings.IndexByte(near, '\n'); i >= 0 {
		near = near[:i]
	}
	if i := strings.Index(text[start:], near); i >= 0 {
		return start + i
	}
	if i := strings.Index(text, near); i >= 0 {
		return i
	}
	return start
}
