package analyzer

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/sqlcompat"
)

// Valid SQL the parser cannot read: when the parser rejects the parse
// text, the syntax of the targeted server that it lacks is rewritten
// (package sqlcompat) and the text parsed again. A rewrite that parses
// is kept, and the analysis goes on on it: positions map back through
// the rewrite (unit.srcOffset), and what a rewrite blanked is not checked.
// A rewrite that does not parse is dropped; its error is kept when it
// lies further on, past the constructs the rewrite read. Text without
// such syntax, a real mistake, is never rewritten and parses as before,
// so it pays nothing.

// compatSyntax returns the family whose syntax is rewritten for the
// targeted server; ok is false for TiDB, whose own parser lint uses.
func (u *unit) compatSyntax() (s sqlcompat.Syntax, ok bool) {
	switch u.flavor().Name {
	case flavor.TiDB:
		return 0, false
	case flavor.MariaDB:
		return sqlcompat.MariaDB, true
	}
	return sqlcompat.MySQL, true
}

// flavor is the targeted server (mysql when none is given).
func (u *unit) flavor() flavor.Flavor {
	if u.opts == nil {
		return flavor.Flavor{Name: flavor.MySQL}
	}
	return u.opts.Flavor.Or(flavor.MySQL)
}

// parseRewritten parses the parse text again with the targeted server's
// syntax rewritten, after the parser rejected it (u.parseErr). For a
// MySQL target, MariaDB's syntax stays an error, which names it; syntax
// the target accepts and nothing rewrites is marked not checked.
func (u *unit) parseRewritten(p *parser.Parser) {
	syntax, ok := u.compatSyntax()
	if !ok {
		return
	}
	if rw := sqlcompat.Rewrite(u.text, syntax); rw != nil {
		stmts, _, err := parseNoPanic(p, rw.Text)
		if err == nil {
			u.stmts, u.rw, u.parseErr = stmts, rw, nil
			return
		}
		if e := u.syntaxError(rw.Text, rw, err); e.textOff > u.parseErr.textOff {
			u.parseErr = e
		}
	}
	if syntax == sqlcompat.MySQL {
		if e := u.mariadbSyntax(p); e != nil {
			u.parseErr = e
			return
		}
	}
	if m := sqlcompat.Unreadable(u.text, u.parseErr.textOff, syntax); m != nil {
		u.parseErr = &SyntaxError{Offset: u.textSrcOffset(m.Start), End: u.textSrcOffset(m.End), textOff: u.parseErr.textOff,
			Unchecked: true, construct: m.Name, Msg: "not checked: SQL this analyzer cannot parse (" + m.Name + ")"}
	}
}

// mariadbSyntax returns the error for text that parses once MariaDB's
// syntax is rewritten: it names the MariaDB construct where the parser
// stopped (or the first), which MySQL rejects. Nil when MariaDB's
// rewrites do not make it parse either.
func (u *unit) mariadbSyntax(p *parser.Parser) *SyntaxError {
	rw := sqlcompat.Rewrite(u.text, sqlcompat.MariaDB)
	if rw == nil {
		return nil
	}
	if _, _, err := parseNoPanic(p, rw.Text); err != nil {
		return nil
	}
	var m *sqlcompat.Match
	for i := range rw.Matches {
		if c := &rw.Matches[i]; c.MariaDB && (m == nil || c.Start <= u.parseErr.textOff) {
			m = c
		}
	}
	if m == nil {
		return nil
	}
	start, end := u.textSrcOffset(m.Start), u.textSrcOffset(m.End)
	if m.Construct == sqlcompat.ReservedName {
		if i := u.tokenAt(start); i >= 0 {
			if e := u.reservedWordError(u.toks[i], nil); e != nil {
				e.textOff, e.construct = m.Start, m.Name
				return e
			}
		}
	}
	return &SyntaxError{Offset: start, End: end, textOff: m.Start, construct: m.Name,
		Msg: m.Name + " is MariaDB syntax, which MySQL rejects (lint targets " + u.flavor().Name.Title() +
			": give --flavor mariadb, or flavor = mariadb in lint.conf, if the corpus is for MariaDB)"}
}

// tokenAt returns the index of the token starting at the source offset
// off, or -1.
func (u *unit) tokenAt(off int) int {
	for i, t := range u.toks {
		if t.Start == off {
			return i
		}
		if t.Start > off {
			break
		}
	}
	return -1
}

// rewroteDual reports whether t is the dual a rewrite quoted or added
// (sqlcompat.HavingWithoutTable): no table, though the parser sees one.
func (u *unit) rewroteDual(t *ast.TableName) bool {
	return u.rw != nil && u.rw.Has(sqlcompat.HavingWithoutTable) && t.Schema.O == "" && strings.EqualFold(t.Name.O, "dual")
}
