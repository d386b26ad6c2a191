package analyzer

import (
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
)

// Pass is what a rule sees of one file, as go/analysis's Pass is what an
// analyzer sees of a package: the file, its statement parsed and its
// names resolved, what it is checked against, and the report functions.
// Rules read these fields and methods and nothing else of the analysis
// (they live in package analyzer/rules: the compiler keeps the unit
// behind the Pass out of their reach), so that how a file is analysed
// can change without touching them. One Pass serves a file's rules in
// turn: a rule reads it and must not keep it or change its fields.
type Pass struct {
	Analyzer *Analyzer

	// Path names the file in findings; Source is its whole text. Every
	// offset a rule reads or reports is a byte offset in Source.
	Path   string
	Source string
	// Scenario is the file as the corpus read it: its parameters and the
	// placeholder uses of its body. Nil for plain SQL (a DDL file).
	Scenario *corpus.Scenario
	// Body is where the statement text starts: after the header.
	Body int

	// Tokens are the statement text's tokens, comments left out;
	// Comments are every comment of the file, header included.
	Tokens   []Token
	Comments []Comment
	// Depths are the tokens' parenthesis depths: Depths[i] is how many
	// brackets are open around Tokens[i] (a bracket is outside itself).
	Depths []int
	// Stmts are the statements as the SQL parser read them, placeholders
	// substituted (tables by a table of their family, values by ?) and,
	// where the parser lacks the flavour's syntax, that syntax rewritten
	// (compat.go: a clause such as RETURNING blanked, a name quoted); nil
	// when the text does not parse, and SyntaxError says why. Their
	// positions are in the text parsed: SourceOffset maps them.
	Stmts       []ast.StmtNode
	SyntaxError *SyntaxError
	// TableRefs are the table references of every query block, in source
	// order; Joins is each FROM clause's join tree; Hints are the
	// optimizer hint comments. All three are read from the tokens, so
	// they exist for a statement that does not parse too.
	TableRefs []*TableRef
	Joins     []*JoinSpan
	Hints     []*HintComment
	// Names binds every column reference to the table it reads, and
	// holds the query blocks, the outer joins and the join conditions;
	// nil when the statement does not parse.
	Names *Resolution

	// Schema is what names resolve against: nil means every name is
	// unknown. Flavor is the targeted server (family mysql when none was
	// given).
	Schema *ddl.Schema
	Flavor flavor.Flavor
	// Plan is the plan a live server chose for the statement, for the
	// rules that need one (Analyzer.NeedsPlan); nil otherwise.
	Plan *Plan

	u     *unit // for the methods below
	diags *[]Diagnostic
}

func newPass(u *unit, a *Analyzer, diags *[]Diagnostic, plan *Plan) *Pass {
	p := &Pass{}
	p.init(u, a, diags, plan)
	return p
}

// init makes p the Pass of u (a Pass reused from a file done with).
func (p *Pass) init(u *unit, a *Analyzer, diags *[]Diagnostic, plan *Plan) {
	*p = Pass{
		Analyzer: a, Path: u.path, Source: u.src, Scenario: u.sc, Body: u.body,
		Tokens: u.toks, Comments: u.comments, Depths: u.depth, Stmts: u.stmts, SyntaxError: u.parseErr,
		TableRefs: u.refs, Joins: u.joins, Hints: u.hints, Names: u.res,
		Schema: u.schema, Plan: plan, u: u, diags: diags,
	}
	if u.opts != nil {
		p.Flavor = u.opts.Flavor
	}
	p.Flavor = p.Flavor.Or(flavor.MySQL)
}

// Inspect returns what a rule sees of one file, for the tools that act on
// the model outside a lint run (joinbench rewrite, the rules' tests): a
// Pass of no Analyzer, whose report functions must not be called. sc is
// the file as the corpus read it (ReadScenario); nil reads src as plain
// SQL.
func Inspect(path, src string, sc *corpus.Scenario, opts *Options) *Pass {
	if opts == nil {
		opts = &Options{}
	}
	return newPass(newUnit(path, src, sc, opts.Schema, opts), nil, nil, nil)
}

// Position is the 1-based line and byte column of a source offset.
func (p *Pass) Position(off int) (line, col int) { return p.u.position(off) }

// SourceOffset maps an offset in the parse text (an AST node's position)
// to Source. A substituted placeholder maps to where its `{{name}}`
// starts.
func (p *Pass) SourceOffset(textOff int) int { return p.u.srcOffset(textOff) }

// TokenEnd is the end of the token that starts at off, extended over a
// qualified name (t.col); the end of the line when no token starts there.
func (p *Pass) TokenEnd(off int) int { return p.u.spanEnd(off) }

// StmtOffsets returns where each of Stmts starts in Source.
func (p *Pass) StmtOffsets() []int { return p.u.stmtOffsets() }

// InHint reports whether the offset is inside an optimizer hint comment.
func (p *Pass) InHint(off int) bool { return p.u.inHint(off) }

// Offset is the source offset of a 1-based line and byte column.
func (p *Pass) Offset(line, col int) int { return p.u.lines.Start(line) + max(col-1, 0) }

// Reportf records a finding at a source offset; it spans the token (or
// qualified name) that starts there.
func (p *Pass) Reportf(offset int, format string, args ...any) *Diagnostic {
	return p.Report(Diagnostic{Offset: offset, Message: fmt.Sprintf(format, args...)})
}

// ReportRangef records a finding spanning source[start:end].
func (p *Pass) ReportRangef(start, end int, format string, args ...any) *Diagnostic {
	return p.Report(Diagnostic{Offset: start, EndOffset: end, Message: fmt.Sprintf(format, args...)})
}

// Report records a finding; Path, Line, Col, the end when not given, Rule
// and Severity are filled in.
func (p *Pass) Report(d Diagnostic) *Diagnostic {
	d.Path = p.Path
	p.u.place(&d)
	d.Rule = p.Analyzer.Name
	d.Severity = p.Analyzer.Severity
	*p.diags = append(*p.diags, d)
	return &(*p.diags)[len(*p.diags)-1]
}
