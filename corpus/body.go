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
	s, src := p.s, p.s.Source
	headerErrs := len(p.errs)
	used := make([]bool, len(s.Params))
	var (
		parts      []part
		text       strings.Builder
		classText  strings.Builder // the statement as classifyText parses it
		stmtStart  = -1
		lastSig    = -1
		sawContent bool
	)
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, part{text: text.String(), param: -1})
			text.Reset()
		}
	}
	endStmt := func() {
		flush()
		if sawContent {
			trimParts(parts)
			s.stmts = append(s.stmts, stmtParts{parts: parts})
			var kind StmtKind
			if p.lazyKinds {
				s.classTexts = append(s.classTexts, classText.String())
			} else {
				kind = classifyText(classText.String())
			}
			s.Statements = append(s.Statements, StmtSpan{Span: Span{Start: stmtStart, End: lastSig}, Kind: kind})
		}
		parts, sawContent, stmtStart, lastSig = nil, false, -1, -1
		classText.Reset()
	}
	mark := func(t sqllex.Token) {
		if stmtStart < 0 {
			stmtStart = t.Start
		}
		lastSig = t.End
		sawContent = true
	}
	use := func(t sqllex.Token, inHint bool) error {
		name := t.PlaceholderName(src)
		idx := -1
		for n, prm := range s.Params {
			if prm.Name == name {
				idx = n
			}
		}
		if idx < 0 && p.badParams[name] {
			return errBadParam // its declaration is the mistake
		}
		if idx < 0 {
			return s.errorf(t.Start, "placeholder {{%s}} is not declared (add `-- param %s: TYPE` to the header)", name, name)
		}
		prm := s.Params[idx]
		if inHint && prm.Kind != KindTable {
			return s.errorf(t.Start, "only table placeholders may appear in an optimizer hint; {{%s}} is a %s value, and values are bound as ? which hints cannot hold", name, prm.Kind)
		}
		used[idx] = true
		flush()
		parts = append(parts, part{param: idx})
		s.Uses = append(s.Uses, Use{Param: prm, Start: t.Start, End: t.End})
		mark(t)
		return nil
	}
	hint := func(h sqllex.Token) {
		hs := sqllex.NewHintScanner(src, h)
		text.WriteString("/*+")
		for t := hs.Next(); t.Kind != sqllex.EOF; t = hs.Next() {
			p.fail(s.quotedPlaceholder(t))
			if err := hs.Err(); err != nil {
				p.fail(s.errorf(err.Offset, "%s", err.Msg))
				break // the rest of the hint cannot be read
			}
			if t.Kind == sqllex.Placeholder {
				p.fail(use(t, true))
				continue
			}
			text.WriteString(t.Text(src))
		}
		if !h.Unterminated {
			text.WriteString("*/")
		}
	}
	sc := sqllex.NewScanner(src, s.BodyOffset)
	for {
		t := sc.Next()
		switch t.Kind {
		case sqllex.EOF:
		case sqllex.Space:
			text.WriteString(t.Text(src))
			classText.WriteString(t.Text(src))
		case sqllex.LineComment:
		case sqllex.BlockComment:
			text.WriteByte(' ')
			classText.WriteByte(' ')
		case sqllex.Placeholder:
			if err := use(t, false); err != nil {
				p.fail(err)
				classText.WriteByte('?')
			} else if prm := s.Uses[len(s.Uses)-1].Param; prm.Kind == KindTable {
				classText.WriteString(sqllex.QuoteIdent(prm.Name))
			} else {
				classText.WriteByte('?')
			}
		case sqllex.Hint:
			mark(t)
			hint(t)
			classText.WriteByte(' ')
		case sqllex.ExecStart, sqllex.ExecEnd:
			text.WriteString(t.Text(src))
			classText.WriteByte(' ')
			mark(t)
		case sqllex.Punct:
			switch src[t.Start] {
			case ';':
				endStmt()
				continue
			case '?':
				p.fail(s.errorf(t.Start, "a bare ? is not allowed: declare a parameter and write {{name}}"))
			}
			text.WriteString(t.Text(src))
			classText.WriteString(t.Text(src))
			mark(t)
		case sqllex.String, sqllex.QuotedIdent:
			p.fail(s.quotedPlaceholder(t))
			text.WriteString(t.Text(src))
			classText.WriteString(t.Text(src))
			mark(t)
		default:
			text.WriteString(t.Text(src))
			classText.WriteString(t.Text(src))
			mark(t)
		}
		if err := sc.Err(); err != nil {
			// What follows an unreadable token cannot be read either.
			p.fail(s.errorf(err.Offset, "%s", err.Msg))
			return
		}
		if t.Kind == sqllex.EOF {
			break
		}
	}
	endStmt()
	if len(s.stmts) == 0 {
		p.fail(s.errorf(len(src), "the scenario has no statement"))
		return
	}
	if len(p.errs) > headerErrs {
		return // a use in a bad placeholder would count as none
	}
	for n, prm := range s.Params {
		if !used[n] {
			p.fail(s.errorf(prm.off, "parameter %q is declared but not used", prm.Name))
		}
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
