package explain

import (
	"encoding/json"
	"fmt"
	"strings"
)

// RepairJSON returns s as valid JSON when it is MariaDB's EXPLAIN FORMAT=JSON
// output that is not. MariaDB writes conditions into JSON strings as SQL
// text, escaped for SQL and not for JSON: `'it\'s'` holds the escape \' and
// `'b\Zc'` holds \Z, which JSON does not have; a tab or other control
// character goes in raw, and a double quote inside a condition unescaped.
// Every byte of the text is kept: an unknown escape gets its backslash
// doubled, a control character becomes \u00XX, and a quote that does not
// close the string (it is not followed by , : } ] or the end) is escaped.
// Valid JSON comes back unchanged. A quote followed by a separator inside a
// condition ('x",y') cannot be told from the end of the string, and stays
// invalid.
func RepairJSON(s string) string {
	if json.Valid([]byte(s)) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			b.WriteByte(c)
			continue
		}
		switch {
		case c == '\\':
			if i+1 < len(s) && strings.IndexByte(`"\/bfnrtu`, s[i+1]) >= 0 && (s[i+1] != 'u' || isHex4(s, i+2)) {
				b.WriteByte(c)
				b.WriteByte(s[i+1])
				i++
				continue
			}
			b.WriteString(`\\`)
		case c == '"':
			if closesString(s, i+1) {
				inString = false
				b.WriteByte(c)
			} else {
				b.WriteString(`\"`)
			}
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// closesString reports whether a quote before s[i:] ends a JSON string:
// what follows it, past white space, is a separator or the end.
func closesString(s string, i int) bool {
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case ',', ':', '}', ']':
			return true
		default:
			return false
		}
	}
	return true
}

func isHex4(s string, i int) bool {
	if i+4 > len(s) {
		return false
	}
	for _, c := range []byte(s[i : i+4]) {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(c)) {
			return false
		}
	}
	return true
}
