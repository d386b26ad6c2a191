package analyzer

import "strings"

// tokKind classifies a lexical token of a scenario body.
type tokKind int

const (
	tokIdent       tokKind = iota // word or `quoted` identifier
	tokNumber                     // numeric literal
	tokString                     // '...' or "..." literal
	tokPlaceholder                // {{name}}
	tokHint                       // /*+ ... */ optimizer hint comment
	tokPunct                      // operator or punctuation
)

// token is one lexical token; Start and End are byte offsets in the text
// that was tokenized. Comments other than hint comments are skipped.
type token struct {
	Kind       tokKind
	Start, End int
	Text       string // the raw text
	Word       string // upper-cased word for unquoted identifiers; unquoted name for quoted ones
	Quoted     bool   // a `quoted` identifier
}

// is reports whether t is the unquoted keyword kw (upper case).
func (t token) is(kw string) bool { return t.Kind == tokIdent && !t.Quoted && t.Word == kw }

// punct reports whether t is the punctuation p.
func (t token) punct(p string) bool { return t.Kind == tokPunct && t.Text == p }

// name is the identifier as SQL sees it (quotes removed, case kept).
func (t token) name() string {
	if t.Quoted {
		return t.Word
	}
	return t.Text
}

// comment is a `-- ...`, `# ...` or `/* ... */` comment (not a hint).
type comment struct {
	Start, End int
	Text       string
}

// tokenize splits src[from:to] into tokens and comments. It never fails:
// an unterminated literal or comment runs to the end of the text.
func tokenize(src string, from, to int) ([]token, []comment) {
	toks := make([]token, 0, (to-from)/5+4)
	var comments []comment
	i := from
	for i < to {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < to && src[i+1] == '-' && (i+2 >= to || src[i+2] == ' ' || src[i+2] == '\t' || src[i+2] == '\n' || src[i+2] == '\r'),
			c == '#':
			j := strings.IndexByte(src[i:to], '\n')
			end := to
			if j >= 0 {
				end = i + j
			}
			comments = append(comments, comment{i, end, src[i:end]})
			i = end
		case c == '/' && i+1 < to && src[i+1] == '*':
			j := strings.Index(src[i+2:to], "*/")
			end := to
			if j >= 0 {
				end = i + 2 + j + 2
			}
			if i+2 < to && src[i+2] == '+' {
				toks = append(toks, token{Kind: tokHint, Start: i, End: end, Text: src[i:end]})
			} else {
				comments = append(comments, comment{i, end, src[i:end]})
			}
			i = end
		case c == '{' && i+1 < to && src[i+1] == '{':
			j := strings.Index(src[i:to], "}}")
			if j < 0 {
				toks = append(toks, token{Kind: tokPunct, Start: i, End: i + 1, Text: "{"})
				i++
				continue
			}
			end := i + j + 2
			toks = append(toks, token{Kind: tokPlaceholder, Start: i, End: end, Text: src[i:end], Word: strings.TrimSpace(src[i+2 : end-2])})
			i = end
		case c == '\'' || c == '"':
			end := scanQuoted(src, i, to, c)
			toks = append(toks, token{Kind: tokString, Start: i, End: end, Text: src[i:end]})
			i = end
		case c == '`':
			end := scanQuoted(src, i, to, '`')
			inner := src[i+1 : end]
			if strings.HasSuffix(inner, "`") {
				inner = inner[:len(inner)-1]
			}
			toks = append(toks, token{Kind: tokIdent, Start: i, End: end, Text: src[i:end], Word: strings.ReplaceAll(inner, "``", "`"), Quoted: true})
			i = end
		case c >= '0' && c <= '9' || c == '.' && i+1 < to && src[i+1] >= '0' && src[i+1] <= '9' && (len(toks) == 0 || toks[len(toks)-1].End != i):
			j := i + 1
			for j < to && (isWordByte(src[j]) || src[j] == '.') {
				j++
			}
			if isAllNumber(src[i:j]) {
				toks = append(toks, token{Kind: tokNumber, Start: i, End: j, Text: src[i:j]})
			} else {
				toks = append(toks, token{Kind: tokIdent, Start: i, End: j, Text: src[i:j], Word: strings.ToUpper(src[i:j])})
			}
			i = j
		case isWordByte(c):
			j := i + 1
			for j < to && isWordByte(src[j]) {
				j++
			}
			toks = append(toks, token{Kind: tokIdent, Start: i, End: j, Text: src[i:j], Word: strings.ToUpper(src[i:j])})
			i = j
		default:
			n := 1
			if i+1 < to {
				switch src[i : i+2] {
				case "<=", ">=", "<>", "!=", ":=", "||", "&&", "<<", ">>", "->":
					n = 2
					if src[i:i+2] == "<=" && i+2 < to && src[i+2] == '>' {
						n = 3
					}
				}
			}
			toks = append(toks, token{Kind: tokPunct, Start: i, End: i + n, Text: src[i : i+n]})
			i += n
		}
	}
	return toks, comments
}

func scanQuoted(src string, i, to int, q byte) int {
	j := i + 1
	for j < to {
		switch src[j] {
		case '\\':
			if q != '`' {
				j += 2
				continue
			}
		case q:
			if j+1 < to && src[j+1] == q {
				j += 2
				continue
			}
			return j + 1
		}
		j++
	}
	return to
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isAllNumber(s string) bool {
	dot, exp := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'e' || c == 'E') && !exp && i > 0:
			exp = true
		case c == 'x' && i == 1 && s[0] == '0', c == 'b' && i == 1 && s[0] == '0':
			return true
		default:
			return false
		}
	}
	return true
}
