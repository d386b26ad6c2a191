package corpus

import (
	"errors"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// body cuts the statement text into statements and placeholder uses.
// Values are bound, so a placeholder may not stand inside quotes; plain
// comments are dropped from the SQL sent (a placeholder in one is not a
// use); optimizer hints are kept and may hold table placeholders only;
// executable comments /*! ... */ are SQL to the server, so they are kept
// and their content is read like the text around them. Each statement is
// classified (StmtKind) from the parse of its text with values as ?, table
// placeholders as names, hints dropped and every executable comment opened
// whatever its version: what some server may run is classified.
func (p *parser) body() {
	s := p.s
	headerErrs := len(p.errs)
	b := &bodyScan{p: p, s: s, src: s.Source, used: make([]bool, len(s.Params)), stmtStart: -1, lastSig: -1}
	b.text.src = s.Source
	b.classText.off = p.lazyKinds
	sc := sqllex.NewScanner(b.src, s.BodyOffset)
	for {
		t := sc.Next()
		b.token(t)
		if err := sc.Err(); err != nil {
			// What follows an unreadable token cannot be read either.
			p.fail(s.errorf(err.Offset, "%s", err.Msg))
			return
		}
		if t.Kind == sqllex.EOF {
			break
		}
	}
	b.endStmt()
	if len(s.stmts) == 0 {
		p.fail(s.errorf(len(b.src), "the scenario has no statement"))
		return
	}
	if len(p.errs) > headerErrs {
		return // a use in a bad placeholder would count as none
	}
	for n, prm := range s.Params {
		if !b.used[n] {
			p.fail(s.errorf(prm.off, "parameter %q is declared but not used", prm.Name))
		}
	}
}

// bodyScan is body's state while it reads the tokens of the text: the
// statement being built as the SQL sent (text, cut into parts at
// placeholder uses) and as classifyText parses it (classText).
type bodyScan struct {
	p    *parser
	s    *Scenario
	src  string
	used []bool // by parameter index

	parts      []part
	text       srcText
	classText  classText
	stmtStart  int // offset of the statement's first significant token; -1 before it
	lastSig    int // end of its last significant token
	sawContent bool
}

// token adds one token to the statement being built.
func (b *bodyScan) token(t sqllex.Token) {
	p, s, src := b.p, b.s, b.src
	switch t.Kind {
	case sqllex.EOF, sqllex.LineComment:
	case sqllex.Space:
		b.both(t)
	case sqllex.BlockComment:
		b.text.writeByte(' ')
		b.classText.writeByte(' ')
	case sqllex.Placeholder:
		if err := b.use(t, false); err != nil {
			p.fail(err)
			b.classText.writeByte('?')
		} else if prm := s.Uses[len(s.Uses)-1].Param; prm.Kind == KindTable {
			b.classText.WriteString(sqllex.QuoteIdent(prm.Name))
		} else {
			b.classText.writeByte('?')
		}
	case sqllex.Hint:
		b.mark(t)
		b.hint(t)
		b.classText.writeByte(' ')
	case sqllex.ExecStart, sqllex.ExecEnd:
		b.text.writeSrc(t.Start, t.End)
		b.classText.writeByte(' ')
		b.mark(t)
	case sqllex.Punct:
		switch src[t.Start] {
		case ';':
			b.endStmt()
			return
		case '?':
			p.fail(s.errorf(t.Start, "a bare ? is not allowed: declare a parameter and write {{name}}"))
		}
		b.both(t)
		b.mark(t)
	case sqllex.String, sqllex.QuotedIdent:
		p.fail(s.quotedPlaceholder(t))
		b.both(t)
		b.mark(t)
	default:
		b.both(t)
		b.mark(t)
	}
}

// both writes the token's text to the SQL sent and to the text
// classified.
func (b *bodyScan) both(t sqllex.Token) {
	b.text.writeSrc(t.Start, t.End)
	b.classText.WriteString(t.Text(b.src))
}

// flush ends the current literal part of the SQL sent.
func (b *bodyScan) flush() {
	if b.text.Len() > 0 {
		b.parts = append(b.parts, part{text: b.text.String(), param: -1})
		b.text.Reset()
	}
}

// endStmt ends the statement being built, keeping it when it has any
// content, and classifies it (later, when the parser's kinds are lazy).
func (b *bodyScan) endStmt() {
	b.flush()
	s := b.s
	if b.sawContent {
		trimParts(b.parts)
		s.stmts = append(s.stmts, stmtParts{parts: b.parts})
		var kind StmtKind
		if b.p.lazyKinds {
			s.kindsPending = true
		} else {
			kind = classifyText(b.classText.String())
		}
		s.Statements = append(s.Statements, StmtSpan{Span: Span{Start: b.stmtStart, End: b.lastSig}, Kind: kind})
	}
	b.parts, b.sawContent, b.stmtStart, b.lastSig = nil, false, -1, -1
	b.classText.Reset()
}

// mark notes a significant token: the statement has content up to t.
func (b *bodyScan) mark(t sqllex.Token) {
	if b.stmtStart < 0 {
		b.stmtStart = t.Start
	}
	b.lastSig = t.End
	b.sawContent = true
}

// use records a placeholder use: a part of its own in the SQL sent.
func (b *bodyScan) use(t sqllex.Token, inHint bool) error {
	s := b.s
	name := t.PlaceholderName(b.src)
	idx := -1
	for n, prm := range s.Params {
		if prm.Name == name {
			idx = n
		}
	}
	if idx < 0 && b.p.badParams[name] {
		return errBadParam // its declaration is the mistake
	}
	if idx < 0 {
		return s.errorf(t.Start, "placeholder {{%s}} is not declared (add `-- param %s: TYPE` to the header)", name, name)
	}
	prm := s.Params[idx]
	if inHint && prm.Kind != KindTable {
		return s.errorf(t.Start, "only table placeholders may appear in an optimizer hint; {{%s}} is a %s value, and values are bound as ? which hints cannot hold", name, prm.Kind)
	}
	b.used[idx] = true
	b.flush()
	b.parts = append(b.parts, part{param: idx})
	s.Uses = append(s.Uses, Use{Param: prm, Start: t.Start, End: t.End})
	b.mark(t)
	return nil
}

// hint copies an optimizer hint to the SQL sent, with its table
// placeholders as uses.
func (b *bodyScan) hint(h sqllex.Token) {
	p, s := b.p, b.s
	hs := sqllex.NewHintScanner(b.src, h)
	b.text.writeSrc(h.Start, h.Start+len("/*+")) // a hint without placeholders stays a slice of the file
	for t := hs.Next(); t.Kind != sqllex.EOF; t = hs.Next() {
		p.fail(s.quotedPlaceholder(t))
		if err := hs.Err(); err != nil {
			p.fail(s.errorf(err.Offset, "%s", err.Msg))
			break // the rest of the hint cannot be read
		}
		if t.Kind == sqllex.Placeholder {
			p.fail(b.use(t, true))
			continue
		}
		b.text.writeSrc(t.Start, t.End)
	}
	if !h.Unterminated {
		b.text.writeSrc(h.End-len("*/"), h.End)
	}
}

// errBadParam is the use of a parameter whose declaration is a mistake:
// not a mistake of its own.
var errBadParam = errors.New("use of a parameter declared wrongly")

// quotedPlaceholder reports a placeholder written inside a string or a
// quoted identifier, where it would not be replaced.
func (s *Scenario) quotedPlaceholder(t sqllex.Token) error {
	if t.Kind != sqllex.String && t.Kind != sqllex.QuotedIdent {
		return nil
	}
	src, q := s.Source, s.Source[t.Start]
	for j := t.Start + 1; j+1 < t.End; j++ {
		switch {
		case src[j] == '\\' && q != '`':
			j++
		case src[j] == '{' && src[j+1] == '{':
			what := "a quoted string: values are bound as parameters, so write the placeholder without quotes"
			if q == '`' {
				what = "a quoted identifier: write {{name}} of a table parameter without backquotes"
			}
			return s.errorf(j, "placeholder inside %s", what)
		}
	}
	return nil
}

// trimParts trims white space around a statement and normalises line
// endings.
func trimParts(parts []part) {
	for n := range parts {
		if parts[n].param < 0 {
			parts[n].text = strings.ReplaceAll(parts[n].text, "\r\n", "\n")
		}
	}
	if len(parts) > 0 && parts[0].param < 0 {
		parts[0].text = strings.TrimLeft(parts[0].text, " \t\r\n")
	}
	if l := len(parts) - 1; l >= 0 && parts[l].param < 0 {
		parts[l].text = strings.TrimRight(parts[l].text, " \t\r\n")
	}
}

// srcText is the SQL sent of a statement as body builds it: mostly runs
// of the file's text, so a part whose pieces follow each other in the
// file is that slice of Source (no copy); anything else (a comment
// dropped, a hint rebuilt) is copied into a builder.
type srcText struct {
	src        string
	start, end int // src[start:end], while not spilled
	spilled    bool
	b          strings.Builder
}

// writeSrc appends src[start:end].
func (t *srcText) writeSrc(start, end int) {
	if !t.spilled {
		switch {
		case t.start == t.end:
			t.start, t.end = start, end
			return
		case start == t.end:
			t.end = end
			return
		}
		t.spill()
	}
	t.b.WriteString(t.src[start:end])
}

func (t *srcText) writeByte(c byte) {
	if !t.spilled {
		t.spill()
	}
	t.b.WriteByte(c)
}

func (t *srcText) spill() {
	t.spilled = true
	t.b.WriteString(t.src[t.start:t.end])
}

func (t *srcText) Len() int {
	if t.spilled {
		return t.b.Len()
	}
	return t.end - t.start
}

func (t *srcText) String() string {
	if t.spilled {
		return t.b.String()
	}
	return t.src[t.start:t.end]
}

func (t *srcText) Reset() {
	t.start, t.end, t.spilled = 0, 0, false
	t.b.Reset()
}

// classText is the text of a statement classifyText parses, as body
// builds it; off (the loader's kinds left to Classify) writes nothing.
type classText struct {
	off bool
	b   strings.Builder
}

func (t *classText) WriteString(s string) {
	if !t.off {
		t.b.WriteString(s)
	}
}

func (t *classText) writeByte(c byte) {
	if !t.off {
		t.b.WriteByte(c)
	}
}

func (t *classText) String() string { return t.b.String() }
func (t *classText) Reset()         { t.b.Reset() }
