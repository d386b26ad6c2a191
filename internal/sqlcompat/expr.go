package sqlcompat

import (
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// Constructs of expressions.

// arithmetic are the operators MariaDB reads in a LIKE pattern without
// brackets (its pattern is an expression; MySQL's, a simple one).
var arithmetic = map[string]bool{"|": true, "&": true, "<<": true, ">>": true, "+": true, "-": true,
	"*": true, "/": true, "%": true, "^": true, "div": true, "mod": true}

// likeExpression brackets a LIKE pattern that is an arithmetic or bit
// expression (`a LIKE b + 1`).
func likeExpression(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "like" || i+1 >= len(st) {
			continue
		}
		j, ops := i+1, 0
		for j < len(st) {
			j = st.operandEnd(j)
			if !arithmetic[st.at(j)] {
				break
			}
			ops++
			j++
		}
		if ops > 0 && j-1 < len(st) {
			r.add(LikeExpression, st[i+1].Start, st[j-1].End, insert(st[i+1].Start, "("), insert(st[j-1].End, ")"))
		}
	}
}

// operandEnd returns the index after the simple operand that starts at
// st[j]: a bracketed expression, a literal, or a name, qualified or
// called.
func (st stmt) operandEnd(j int) int {
	if st.at(j) == "(" {
		return st.closing(j) + 1
	}
	j++
	for st.at(j) == "." && j+1 < len(st) {
		j += 2
	}
	if st.at(j) == "(" && st.word(j-1) {
		return st.closing(j) + 1
	}
	return j
}

// escapeExpression replaces an ESCAPE that is not a string literal
// (MariaDB's and MySQL's `ESCAPE 0x5c`, an expression) by a one-character
// string.
func escapeExpression(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "escape" || i+1 >= len(st) || st[i+1].Kind == sqllex.String {
			continue
		}
		if i == 0 || st.topLevelBefore(i, "like") < 0 {
			continue
		}
		end := i + 1
		if st[end].low == "(" {
			end = st.closing(end)
		}
		r.add(EscapeExpression, st[i+1].Start, st[end].End, replace(st[i+1].Start, st[end].End, "'|'"))
	}
}

// topLevelBefore returns the index of the last word w before st[i] at
// its level, or -1.
func (st stmt) topLevelBefore(i int, w string) int {
	for j := range st.levelBefore(i) {
		switch st[j].low {
		case w:
			return j
		case "(":
			return -1
		}
	}
	return -1
}

// valueFunction reads MariaDB's VALUE(col), a synonym of VALUES(col), as
// VALUES(col).
func valueFunction(r *rewriter, st stmt) {
	for i, t := range st {
		if t.low != "value" || st.at(i+1) != "(" || st[i+1].Start != t.End {
			continue
		}
		if i > 0 {
			switch prev := st[i-1]; {
			case prev.Kind == sqllex.QuotedIdent, prev.low == ")":
				continue // INSERT INTO t (a) VALUE (1)
			case prev.Kind == sqllex.Word && !exprKeyword[prev.low]:
				continue // INSERT INTO t VALUE (1)
			}
		}
		r.add(ValueFunction, t.Start, t.End, insert(t.End, "S"))
	}
}

// exprKeyword are the words an expression follows.
var exprKeyword = map[string]bool{"by": true, "where": true, "and": true, "or": true, "not": true, "select": true,
	"having": true, "on": true, "when": true, "then": true, "else": true, "set": true, "xor": true}

// castType reads MariaDB's CAST(x AS VARCHAR(n)) as CAST(x AS CHAR(n)),
// and CAST(x AS INT|INTEGER) as CAST(x AS SIGNED).
func castType(r *rewriter, st stmt) {
	for i, t := range st {
		if st.at(i-1) != "as" || st.enclosingCall(i-1) != "cast" {
			continue
		}
		switch t.low {
		case "varchar":
			r.add(CastType, t.Start, t.End, replace(t.Start, t.End, "CHAR"))
		case "int", "integer":
			r.add(CastType, t.Start, t.End, replace(t.Start, t.End, "SIGNED"))
		}
	}
}

// enclosingCall returns the lower-case name of the function whose
// brackets hold st[i], or "".
func (st stmt) enclosingCall(i int) string {
	for j := range st.levelBefore(i) {
		if st[j].low == "(" {
			return st.at(j - 1)
		}
	}
	return ""
}

// dynamicColumns blanks the `AS type` of MariaDB's dynamic-column
// functions (COLUMN_GET(blob, 'name' AS INT)): what is left is a plain
// call.
func dynamicColumns(r *rewriter, st stmt) {
	for i, t := range st {
		switch t.low {
		case "column_get", "column_create", "column_add":
		default:
			continue
		}
		if st.at(i+1) != "(" {
			continue
		}
		end := st.closing(i + 1)
		var edits []edit
		for _, arg := range st.arguments(i+1, end) {
			if as := st.topLevel(arg.from, arg.to, "as"); as >= 0 {
				edits = append(edits, r.blank(st[as].Start, st[arg.to-1].End))
			}
		}
		r.add(DynamicColumns, t.Start, st[end].End, edits...)
	}
}

// tidbCharsets are the character sets the TiDB parser knows as
// introducers; MySQL and MariaDB know more (_cp866, _latin2 ...).
var tidbCharsets = map[string]bool{"utf8": true, "utf8mb4": true, "utf8mb3": true, "ascii": true,
	"latin1": true, "binary": true, "gbk": true, "gb18030": true}

// serverCharsets are the other character sets MySQL and MariaDB name.
var serverCharsets = map[string]bool{"big5": true, "dec8": true, "cp850": true, "hp8": true, "koi8r": true,
	"latin2": true, "swe7": true, "ujis": true, "sjis": true, "hebrew": true, "tis620": true, "euckr": true,
	"koi8u": true, "gb2312": true, "greek": true, "cp1250": true, "latin5": true, "armscii8": true,
	"ucs2": true, "cp866": true, "keybcs2": true, "macce": true, "macroman": true, "cp852": true,
	"latin7": true, "cp1251": true, "utf16": true, "utf16le": true, "cp1256": true, "cp1257": true,
	"utf32": true, "geostd8": true, "cp932": true, "eucjpms": true}

// charsetIntroducer blanks an introducer (`_cp866'text'`) of a character
// set the TiDB parser does not know: the literal stays.
func charsetIntroducer(r *rewriter, st stmt) {
	for i, t := range st {
		cs, ok := strings.CutPrefix(t.low, "_")
		if !ok || t.Kind != sqllex.Word || !serverCharsets[cs] || tidbCharsets[cs] || i+1 >= len(st) {
			continue
		}
		if n := st[i+1]; n.Kind == sqllex.String || n.Kind == sqllex.Number {
			r.add(CharsetIntroducer, t.Start, t.End, r.blank(t.Start, t.End))
		}
	}
}
