package suite

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// explainPrefix is EXPLAIN or ANALYZE with their options: the statement
// after it is kept on its own, as a scenario would hold it.
var explainPrefix = regexp.MustCompile(`(?is)^(explain|analyze|describe|desc)(\s+(extended|partitions|format\s*=\s*\w+))*\s+`)

var selectWord = regexp.MustCompile(`(?i)\bselect\b`)

// DML returns the statement a scenario could hold (a query, a write
// reading other tables) and its kind, or ok false for anything else
// (DDL, SET, SHOW, ANALYZE TABLE, a plain INSERT ... VALUES, text that is
// not UTF-8 as a scenario file must be).
func DML(sql string) (stmt, kind string, ok bool) {
	if !utf8.ValidString(sql) {
		return "", "", false // a test run with a single-byte connection character set
	}
	stmt = sql
	if m := explainPrefix.FindStringIndex(stmt); m != nil {
		stmt = stmt[m[1]:]
	}
	word := strings.ToLower(firstWord(stmt))
	switch word {
	case "select", "with", "values":
		return stmt, "select", true
	case "update", "delete":
		return stmt, word, true
	case "insert", "replace":
		if selectWord.MatchString(stmt) {
			return stmt, "insert-select", true
		}
	}
	return "", "", false
}

// firstWord is the first keyword of a statement, past opening brackets
// and comments other than executable ones.
func firstWord(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n(")
		if strings.HasPrefix(s, "/*") && !strings.HasPrefix(s, "/*!") && !strings.HasPrefix(s, "/*M!") {
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
			continue
		}
		if strings.HasPrefix(s, "#") || strings.HasPrefix(s, "-- ") {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
			continue
		}
		break
	}
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return s[:i]
}
