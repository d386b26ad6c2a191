package ingest

import (
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// Literal is one value taken out of a statement.
type Literal struct {
	// Text is the value as the server reads it: a string without its
	// quotes and escapes, a number as written (with its sign).
	Text string
	// Quoted reports a string literal.
	Quoted bool
	// Unknown marks the ? of a digest text (or of a prepared
	// statement's text): a value stood there, which the log does not say.
	Unknown bool
}

// Slot is one place of a fingerprint where values stood: one literal, or
// the folded values of an IN (...) list.
type Slot struct {
	Values []Literal
	// List marks an IN list folded to one slot.
	List bool
}

// piece is a part of a statement's text as a scenario keeps it: text, or a
// slot (whose values the scenario replaces by placeholders).
type piece struct {
	text string
	slot int    // -1 for text
	orig string // a slot's text as written
}

// token is a significant token of a statement (no space, no comment):
// text is lower case for words and unquoted for quoted identifiers.
type token struct {
	kind  sqllex.Kind
	text  string
	start int
	slot  int // the slot of a literal, else -1
}

// Shape is a statement taken apart: its fingerprint, the slots of its
// values, and its text in pieces.
type Shape struct {
	SQL         string
	Fingerprint string
	Slots       []Slot
	pieces      []piece
	toks        []token
}

// Fingerprint takes a statement apart as pt-query-digest's fingerprint
// does: comments dropped, white space collapsed, words and identifiers
// lower case and unquoted, each literal (string or number, with a sign)
// replaced by ?, an IN list of literals folded to in(?+), the rows of a
// multi-row VALUES after the first folded away, a trailing ; dropped.
// Unlike pt-query-digest it keeps optimizer hints (/*+ ... */): they
// change the plan, which is what a join scenario is about.
func Fingerprint(sql string) *Shape {
	sql = strings.TrimSpace(sql)
	all, _ := sqllex.Tokens(sql)
	var sig []sqllex.Token
	for _, t := range all {
		switch t.Kind {
		case sqllex.Space, sqllex.LineComment, sqllex.BlockComment, sqllex.ExecStart, sqllex.ExecEnd, sqllex.EOF:
			continue
		}
		sig = append(sig, t)
	}
	for len(sig) > 0 && sig[len(sig)-1].Kind == sqllex.Punct && sig[len(sig)-1].Text(sql) == ";" {
		sig = sig[:len(sig)-1]
	}
	sh := &Shape{SQL: sql}
	var fp strings.Builder
	var text strings.Builder
	textFrom := 0 // where the pending text of pieces starts in sql
	flush := func(upTo int) {
		text.WriteString(dropComments(sql[textFrom:upTo]))
		if text.Len() > 0 {
			sh.pieces = append(sh.pieces, piece{text: text.String(), slot: -1})
			text.Reset()
		}
	}
	emit := func(s string) {
		if fp.Len() > 0 && needsSpace(fp.String(), s) {
			fp.WriteByte(' ')
		}
		fp.WriteString(s)
	}
	addSlot := func(slot Slot, from, to int) {
		flush(from)
		sh.pieces = append(sh.pieces, piece{slot: len(sh.Slots), orig: sql[from:to]})
		sh.Slots = append(sh.Slots, slot)
		textFrom = to
	}
	values := false // after VALUES: a second row is folded away
	for i := 0; i < len(sig); i++ {
		t := sig[i]
		word := strings.ToLower(t.Text(sql))
		switch {
		case t.Kind == sqllex.Word && (word == "in") && i+1 < len(sig) && sig[i+1].Text(sql) == "(":
			if vals, end, ok := literalList(sql, sig, i+2); ok {
				emit("in")
				emit("(")
				emit("?+")
				sh.toks = append(sh.toks, token{kind: t.Kind, text: "in", start: t.Start, slot: -1},
					token{kind: sqllex.Punct, text: "(", start: sig[i+1].Start, slot: -1},
					token{kind: sqllex.String, text: "?", start: sig[i+2].Start, slot: len(sh.Slots)})
				flush(t.Start)
				text.WriteString(sql[t.Start:sig[i+1].End])
				textFrom = sig[i+1].End
				addSlot(Slot{Values: vals, List: true}, sig[i+2].Start, sig[end-1].End)
				i = end - 1 // the ) is emitted next round
				continue
			}
		case t.Kind == sqllex.Word && word == "values":
			values = true
		case t.Kind == sqllex.Punct && word == "," && values && i > 0 && sig[i-1].Text(sql) == ")" &&
			i+1 < len(sig) && sig[i+1].Text(sql) == "(":
			// A second row of VALUES: fold it and the rows after it away.
			end := skipRows(sql, sig, i)
			flush(sig[i-1].End)
			textFrom = sig[end-1].End
			i = end - 1
			continue
		}
		if lit, width, ok := literalAt(sql, sig, i); ok {
			emit("?")
			sh.toks = append(sh.toks, token{kind: sqllex.String, text: "?", start: t.Start, slot: len(sh.Slots)})
			addSlot(Slot{Values: []Literal{lit}}, t.Start, sig[i+width-1].End)
			i += width - 1
			continue
		}
		norm := word
		switch t.Kind {
		case sqllex.QuotedIdent:
			norm = strings.ToLower(t.Unquote(sql))
		case sqllex.Hint:
			norm = strings.Join(strings.Fields(word), " ")
		}
		emit(norm)
		sh.toks = append(sh.toks, token{kind: t.Kind, text: norm, start: t.Start, slot: -1})
	}
	if len(sig) > 0 {
		flush(sig[len(sig)-1].End)
	}
	sh.Fingerprint = fp.String()
	return sh
}

// literalAt reads a literal at sig[i]: a string, a number, or a sign and
// a number where a sign cannot be an operator (after an operator, a
// keyword, ( or ,). width is how many tokens it takes.
func literalAt(sql string, sig []sqllex.Token, i int) (lit Literal, width int, ok bool) {
	t := sig[i]
	switch t.Kind {
	case sqllex.String:
		if t.Unterminated {
			return lit, 0, false
		}
		return Literal{Text: unquoteString(t.Text(sql)), Quoted: true}, 1, true
	case sqllex.Number:
		return Literal{Text: t.Text(sql)}, 1, true
	case sqllex.Punct:
		s := t.Text(sql)
		if s == "?" {
			return Literal{Unknown: true}, 1, true
		}
		if (s == "-" || s == "+") && i+1 < len(sig) && sig[i+1].Kind == sqllex.Number && sig[i+1].Start == t.End && signPosition(sql, sig, i) {
			txt := sig[i+1].Text(sql)
			if s == "-" {
				txt = "-" + txt
			}
			return Literal{Text: txt}, 2, true
		}
	}
	return lit, 0, false
}

// signPosition reports whether a + or - at sig[i] is a sign: nothing that
// ends an operand precedes it.
func signPosition(sql string, sig []sqllex.Token, i int) bool {
	if i == 0 {
		return true
	}
	p := sig[i-1]
	switch p.Kind {
	case sqllex.Number, sqllex.String, sqllex.QuotedIdent:
		return false
	case sqllex.Word:
		return isKeyword(strings.ToLower(p.Text(sql)))
	case sqllex.Punct:
		return p.Text(sql) != ")"
	}
	return true
}

// literalList reads literals separated by commas from sig[i] up to a ),
// returning the index just past the last literal (the ) is sig[end]).
func literalList(sql string, sig []sqllex.Token, i int) (vals []Literal, end int, ok bool) {
	for i < len(sig) {
		lit, w, isLit := literalAt(sql, sig, i)
		if !isLit {
			return nil, 0, false
		}
		vals = append(vals, lit)
		i += w
		if i >= len(sig) {
			return nil, 0, false
		}
		switch sig[i].Text(sql) {
		case ")":
			return vals, i, true
		case ",":
			i++
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// skipRows returns the index just past the last row of a VALUES list
// whose second row starts after the comma at sig[i].
func skipRows(sql string, sig []sqllex.Token, i int) int {
	for i < len(sig) && sig[i].Text(sql) == "," && i+1 < len(sig) && sig[i+1].Text(sql) == "(" {
		depth := 0
		j := i + 1
		for ; j < len(sig); j++ {
			switch sig[j].Text(sql) {
			case "(":
				depth++
			case ")":
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if j >= len(sig) {
			return len(sig)
		}
		i = j + 1
	}
	return i
}

// dropComments removes the comments of a stretch of text between
// significant tokens (white space stays as written), and the markers of
// executable comments, whose content is kept.
func dropComments(s string) string {
	if !strings.ContainsAny(s, "#-/*") {
		return s
	}
	toks, _ := sqllex.Tokens(s)
	var b strings.Builder
	for _, t := range toks {
		switch t.Kind {
		case sqllex.LineComment, sqllex.BlockComment, sqllex.ExecStart, sqllex.ExecEnd, sqllex.EOF:
			continue
		}
		b.WriteString(t.Text(s))
	}
	return b.String()
}

// needsSpace reports whether a space separates s from what precedes it
// in a fingerprint: none around ( ) , . and after a ( or a dot.
func needsSpace(prev, s string) bool {
	last := prev[len(prev)-1]
	switch {
	case last == '(' || last == '.':
		return false
	case s == ")" || s == "," || s == "." || s == "(" && isWordEnd(last):
		return false
	}
	return true
}

func isWordEnd(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == ')'
}

// unquoteString returns the value of a quoted string literal: quotes
// removed, doubled quotes halved, backslash escapes read as MySQL reads
// them (outside NO_BACKSLASH_ESCAPES).
func unquoteString(s string) string {
	if len(s) < 2 {
		return s
	}
	q := s[0]
	inner := s[1 : len(s)-1]
	if !strings.ContainsAny(inner, "\\"+string(q)) {
		return inner
	}
	var b strings.Builder
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		switch {
		case c == q && i+1 < len(inner) && inner[i+1] == q:
			b.WriteByte(q)
			i++
		case c == '\\' && i+1 < len(inner):
			i++
			switch inner[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case 'Z':
				b.WriteByte(26)
			case 'b':
				b.WriteByte('\b')
			case '%', '_':
				b.WriteByte('\\')
				b.WriteByte(inner[i])
			default:
				b.WriteByte(inner[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// keywords that end no operand: after them a + or - is a sign, and they
// are no table alias.
var keywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`select from where and or not on join inner left right outer cross natural
		straight_join using group order by having limit offset union all distinct as set values value into
		update delete insert replace in is like between case when then else end exists with window for lock
		share mode force use ignore partition key index high_priority low_priority sql_no_cache sql_calc_found_rows
		asc desc interval div mod xor regexp rlike escape null true false duplicate returning`) {
		keywords[w] = true
	}
}

func isKeyword(w string) bool { return keywords[w] }
