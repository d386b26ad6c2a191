package corpus

import (
	"strings"
)

// body cuts the statement text into statements and placeholder uses.
// Values are bound, so a placeholder may not stand inside quotes; plain
// comments are dropped from the SQL sent (a placeholder in one is not a
// use); optimizer hints are kept and may hold table placeholders only.
func (p *parser) body() error {
	s, src := p.s, p.s.Source
	used := make([]bool, len(s.Params))
	var (
		parts      []part
		text       strings.Builder
		stmtStart  = -1
		lastSig    = -1
		inHint     = -1 // offset of the open hint, or -1
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
			s.stmts = append(s.stmts, stmtParts{parts: parts, write: isWrite(parts)})
			s.Statements = append(s.Statements, Span{Start: stmtStart, End: lastSig})
		}
		parts, sawContent, stmtStart, lastSig = nil, false, -1, -1
	}
	mark := func(i, j int) {
		if stmtStart < 0 {
			stmtStart = i
		}
		lastSig = j
		sawContent = true
	}
	i := s.BodyOffset
	for i < len(src) {
		c := src[i]
		switch {
		case inHint >= 0 && c == '*' && i+1 < len(src) && src[i+1] == '/':
			text.WriteString("*/")
			inHint = -1
			mark(i, i+2)
			i += 2
		case c == '{' && i+1 < len(src) && src[i+1] == '{':
			j := skipBlanks(src, i+2, len(src))
			k := ident(src, j)
			e := skipBlanks(src, k, len(src))
			if k == j || !strings.HasPrefix(src[e:], "}}") {
				return s.errorf(i, "malformed placeholder: write {{name}}")
			}
			name := src[j:k]
			idx := -1
			for n, prm := range s.Params {
				if prm.Name == name {
					idx = n
				}
			}
			if idx < 0 {
				return s.errorf(i, "placeholder {{%s}} is not declared (add `-- param %s: TYPE` to the header)", name, name)
			}
			prm := s.Params[idx]
			if inHint >= 0 && prm.Kind != KindTable {
				return s.errorf(i, "only table placeholders may appear in an optimizer hint; {{%s}} is a %s value, and values are bound as ? which hints cannot hold", name, prm.Kind)
			}
			used[idx] = true
			flush()
			parts = append(parts, part{param: idx})
			s.Uses = append(s.Uses, Use{Param: prm, Start: i, End: e + 2})
			mark(i, e+2)
			i = e + 2
		case inHint >= 0:
			text.WriteByte(c)
			i++
		case c == '\'' || c == '"' || c == '`':
			j, err := p.quoted(i)
			if err != nil {
				return err
			}
			text.WriteString(src[i:j])
			mark(i, j)
			i = j
		case c == '-' && strings.HasPrefix(src[i:], "--") && (i+2 == len(src) || isSpace(src[i+2])),
			c == '#':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			i += j
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			if strings.HasPrefix(src[i:], "/*+") {
				inHint = i
				text.WriteString("/*+")
				mark(i, i+3)
				i += 3
				continue
			}
			if strings.HasPrefix(src[i:], "/*!") || strings.HasPrefix(src[i:], "/*M!") {
				// executable comment: its content is SQL
				text.WriteString("/*")
				mark(i, i+2)
				i += 2
				continue
			}
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return s.errorf(i, "unterminated comment")
			}
			text.WriteByte(' ')
			i += j + 4
		case c == ';':
			endStmt()
			i++
		case c == '?':
			return s.errorf(i, "a bare ? is not allowed: declare a parameter and write {{name}}")
		default:
			text.WriteByte(c)
			if !isSpace(c) {
				mark(i, i+1)
			}
			i++
		}
	}
	if inHint >= 0 {
		return s.errorf(inHint, "unterminated optimizer hint")
	}
	endStmt()
	if len(s.stmts) == 0 {
		return s.errorf(len(src), "the scenario has no statement")
	}
	for n, prm := range s.Params {
		if !used[n] {
			return s.errorf(prm.off, "parameter %q is declared but not used", prm.Name)
		}
	}
	return nil
}

// quoted returns the end of the quoted string or identifier at src[i].
func (p *parser) quoted(i int) (int, error) {
	src := p.s.Source
	q := src[i]
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\\' && q != '`':
			j += 2
			continue
		case c == q:
			if j+1 < len(src) && src[j+1] == q {
				j += 2
				continue
			}
			return j + 1, nil
		case c == '{' && j+1 < len(src) && src[j+1] == '{':
			what := "a quoted string: values are bound as parameters, so write the placeholder without quotes"
			if q == '`' {
				what = "a quoted identifier: write {{name}} of a table parameter without backquotes"
			}
			return 0, p.s.errorf(j, "placeholder inside %s", what)
		}
		j++
	}
	return 0, p.s.errorf(i, "unterminated quoted text")
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
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

// isWrite reports whether a statement modifies data.
func isWrite(parts []part) bool {
	var first string
	for _, pt := range parts {
		if pt.param >= 0 {
			break
		}
		t := strings.TrimLeft(pt.text, " \t\r\n(")
		if t != "" {
			e := 0
			for e < len(t) && isIdentByte(t[e], false) {
				e++
			}
			first = strings.ToUpper(t[:e])
			break
		}
	}
	switch first {
	case "UPDATE", "DELETE", "INSERT", "REPLACE":
		return true
	}
	return false
}
