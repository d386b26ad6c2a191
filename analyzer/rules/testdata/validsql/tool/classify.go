package main

import (
	"regexp"
	"strings"
)

// construct names a piece of MariaDB syntax the TiDB parser rejects. It
// matches when the text before the rejected token (before, lower case, up
// to 200 bytes) and the text from it (at, lower case, up to 60 bytes)
// fit; stmt is the whole statement in lower case.
type construct struct {
	name  string
	slug  string // the stem of its sample files
	match func(stmt, before, at, msg string) bool
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

var (
	multiTable      = re(`^\s*(update|delete)\s+(low_priority\s+|ignore\s+|quick\s+)*[\w.` + "`" + `]+(\s+(as\s+)?\w+)?\s*(,|\s(natural\s+|straight_join|((inner|cross|left|right)(\s+outer)?\s+)?join)\b)`)
	orderOrLimit    = re(`^(order\s+by|limit)\b`)
	intoEnd         = re(`\binto\s*$`)
	windowWords     = re(`^(rank|dense_rank|row_number|lead|lag|window|ntile|first_value|last_value|nth_value|cume_dist|percent_rank|groups|over)\b\s*([^\s(]|$)`)
	rowWord         = re(`(^|[^\w.@])row\s*$`)
	rowAt           = re(`^row\b\s*([^\s(]|$)`)
	naturalEnd      = re(`\bnatural\s*$`)
	againstClosed   = re(`\bagainst\s*\([^()]*\)\s*$`)
	comparisonStart = re(`^(<=>|>=|<=|<>|!=|=|<|>)`)
	comparisonEnd   = re(`(<=>|>=|<=|<>|!=|=|<|>)\s*$`)
	matchEnd        = re(`\bmatch\s*$`)
	fromDual        = re(`\bfrom\s+dual\b`)
	valueEnd        = re(`\bvalue\s*$`)
	escapeEnd       = re(`\bescape\s*$`)
	likeOperand     = re(`\blike\s+[\w.'"%@]+\s*$`)
	operatorStart   = re(`^(\||&|>>|<<|\+|-|\*|/|div\b|mod\b|%)`)
	limitEnd        = re(`\blimit(\s+\d+(\s*,\s*\d+)?)?\s*$`)
	valuesEnd       = re(`(^|\b(union(\s+all|\s+distinct)?|intersect(\s+all)?|except(\s+all)?|from|in)\s*\(?\s*|\(\s*)values\s*$`)
	withinGroupEnd  = re(`\bwithin\s+group\s*$`)
	medianEnd       = re(`\bmedian\s*\([^()]*\)\s*$`)
	offsetFuncOpen  = re(`\b(lead|lag|nth_value|ntile)\s*\([^()]*$`)
	columnGetOpen   = re(`\bcolumn_get\s*\([^()]*$`)
	castAsEnd       = re(`\bcast\s*\(.*\bas\s*$`)
	lastValueOpen   = re(`\blast_value\s*\([^()]*$`)
	fromTableEnd    = re(`\bfrom\s+[\w` + "`" + `]+\s*$`)
)

// constructs, the first that matches wins: the ones the issue names
// first, then those the set showed.
var constructs = []construct{
	{"multi-table UPDATE/DELETE ... ORDER BY/LIMIT", "multi-update-order-limit", func(stmt, before, at, msg string) bool {
		return multiTable.MatchString(stmt) && orderOrLimit.MatchString(at)
	}},
	{"SELECT ... INTO @var", "select-into-var", func(stmt, before, at, msg string) bool {
		return intoEnd.MatchString(before) && strings.HasPrefix(at, "@") || strings.HasPrefix(at, "into @")
	}},
	{"SELECT ... INTO OUTFILE/DUMPFILE before FROM", "into-outfile-before-from", func(stmt, before, at, msg string) bool {
		return intoEnd.MatchString(before) && strings.HasPrefix(at, "dumpfile") ||
			strings.HasPrefix(at, "from") && strings.Contains(before, "into outfile")
	}},
	{"MySQL 8 reserved word as a name (rank, lead, window ...)", "reserved-word-as-name", func(stmt, before, at, msg string) bool {
		return windowWords.MatchString(at)
	}},
	{"ROW as a name", "row-as-name", func(stmt, before, at, msg string) bool {
		return rowWord.MatchString(before) && (at == "" || !strings.HasPrefix(at, "(")) || rowAt.MatchString(at)
	}},
	{"NATURAL INNER JOIN / NATURAL STRAIGHT_JOIN", "natural-inner-join", func(stmt, before, at, msg string) bool {
		return naturalEnd.MatchString(before) && (strings.HasPrefix(at, "inner") || strings.HasPrefix(at, "straight_join"))
	}},
	{"MATCH ... AGAINST compared without brackets", "match-against-compared", func(stmt, before, at, msg string) bool {
		return againstClosed.MatchString(before) && comparisonStart.MatchString(at) ||
			comparisonEnd.MatchString(before) && strings.HasPrefix(at, "match")
	}},
	{"MATCH col AGAINST without brackets around the columns", "match-without-brackets", func(stmt, before, at, msg string) bool {
		return matchEnd.MatchString(before) && !strings.HasPrefix(at, "(")
	}},
	{"HAVING in a SELECT without a table (FROM dual, no FROM)", "having-without-table", func(stmt, before, at, msg string) bool {
		return strings.HasPrefix(at, "having") && (fromDual.MatchString(before) || !strings.Contains(lastBlock(before), "from"))
	}},
	{"window frame EXCLUDE", "window-exclude", func(stmt, before, at, msg string) bool {
		return strings.HasPrefix(at, "exclude")
	}},
	{"VALUE(col)", "value-function", func(stmt, before, at, msg string) bool {
		return valueEnd.MatchString(before) && strings.HasPrefix(at, "(")
	}},
	{"LIKE ... ESCAPE with a number or an expression", "like-escape-expression", func(stmt, before, at, msg string) bool {
		return escapeEnd.MatchString(before)
	}},
	{"DELETE ... RETURNING", "delete-returning", func(stmt, before, at, msg string) bool {
		return strings.HasPrefix(at, "returning") || strings.HasPrefix(stmt, "delete") && strings.HasSuffix(strings.TrimSpace(before), "returning")
	}},
	{"LIMIT ROWS EXAMINED", "limit-rows-examined", func(stmt, before, at, msg string) bool {
		return limitEnd.MatchString(before) && strings.HasPrefix(at, "rows examined")
	}},
	{"recursive CTE CYCLE ... RESTRICT", "cte-cycle", func(stmt, before, at, msg string) bool {
		return strings.HasPrefix(at, "cycle")
	}},
	{"table value constructor VALUES (...)", "values-constructor", func(stmt, before, at, msg string) bool {
		return valuesEnd.MatchString(before) && strings.HasPrefix(at, "(")
	}},
	{"PERCENTILE_CONT/DISC ... WITHIN GROUP", "percentile-within-group", func(stmt, before, at, msg string) bool {
		return withinGroupEnd.MatchString(before)
	}},
	{"MEDIAN(...) OVER", "median-over", func(stmt, before, at, msg string) bool {
		return medianEnd.MatchString(before) && strings.HasPrefix(at, "over")
	}},
	{"LEAD/LAG/NTH_VALUE/NTILE with an expression argument", "offset-expression", func(stmt, before, at, msg string) bool {
		return offsetFuncOpen.MatchString(before)
	}},
	{"LIKE pattern with an arithmetic or bit operator", "like-pattern-operator", func(stmt, before, at, msg string) bool {
		return likeOperand.MatchString(before) && operatorStart.MatchString(at)
	}},
	{"COLUMN_GET(col, name AS type) (dynamic columns)", "column-get", func(stmt, before, at, msg string) bool {
		return columnGetOpen.MatchString(before)
	}},
	{"CAST(... AS VARCHAR(n))", "cast-as-varchar", func(stmt, before, at, msg string) bool {
		return castAsEnd.MatchString(before) && strings.HasPrefix(at, "varchar")
	}},
	{"LAST_VALUE(expr, expr, ...) (not a window function)", "last-value-function", func(stmt, before, at, msg string) bool {
		return lastValueOpen.MatchString(before) && strings.HasPrefix(at, ",")
	}},
	{"table alias written `t1 = alias`", "equals-table-alias", func(stmt, before, at, msg string) bool {
		return fromTableEnd.MatchString(before) && strings.HasPrefix(at, "=")
	}},
	{"DELETE ... FOR PORTION OF (application-time period)", "delete-for-portion", func(stmt, before, at, msg string) bool {
		return strings.HasPrefix(at, "for portion of")
	}},
	{"character set introducer the parser lacks (_cp866 ...)", "charset-introducer", func(stmt, before, at, msg string) bool {
		return strings.Contains(msg, "character introducer")
	}},
}

// classify puts a syntax error at offset off of sql down to a construct.
func classify(sql string, off int, msg string) string {
	if off < 0 || off > len(sql) {
		off = len(sql)
	}
	lower := strings.ToLower(sql)
	before := strings.Join(strings.Fields(lower[max(0, off-200):off]), " ")
	at := strings.Join(strings.Fields(lower[off:min(len(lower), off+60)]), " ")
	for _, c := range constructs {
		if c.match(lower, before, at, msg) {
			return c.name
		}
	}
	return "other: near " + firstToken(at)
}

// lastBlock is the text of the innermost query block the text ends in:
// after the last SELECT.
func lastBlock(before string) string {
	if i := strings.LastIndex(before, "select"); i >= 0 {
		return before[i:]
	}
	return before
}

func firstToken(s string) string {
	if s == "" {
		return "end of statement"
	}
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// constructSlug returns the file-name stem of a construct's name.
func constructSlug(name string) string {
	for _, c := range constructs {
		if c.name == name {
			return c.slug
		}
	}
	return "other"
}
