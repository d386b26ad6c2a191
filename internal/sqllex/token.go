package sqllex

import "fmt"

// Kind classifies a token.
type Kind uint8

// Kinds of token. Every byte of the input belongs to exactly one token, so
// white space and comments are tokens too.
const (
	EOF          Kind = iota // end of input; Start = End = the end offset
	Space                    // a run of white space: space, \t, \n, \r, \f, \v
	LineComment              // `# ...` or `-- ...` up to, not including, the newline
	BlockComment             // `/* ... */`
	Hint                     // `/*+ ... */` optimizer hint comment (see Token.Misplaced)
	ExecStart                // `/*!`, `/*!50100`, `/*M!` or `/*M!100301`: opens an executable comment
	ExecEnd                  // the `*/` that closes an executable comment
	String                   // '...' or "..." literal
	QuotedIdent              // `...` identifier
	Word                     // identifier or keyword, unquoted
	Number                   // numeric literal
	Placeholder              // {{name}} of the scenario format
	Punct                    // operator or punctuation, ';' and '?' included
)

var kindNames = [...]string{
	EOF: "EOF", Space: "Space", LineComment: "LineComment", BlockComment: "BlockComment",
	Hint: "Hint", ExecStart: "ExecStart", ExecEnd: "ExecEnd", String: "String",
	QuotedIdent: "QuotedIdent", Word: "Word", Number: "Number", Placeholder: "Placeholder",
	Punct: "Punct",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// IsSpaceOrComment reports whether the server skips a token of this
// kind: white space and plain comments (not hints, not executable
// comments).
func (k Kind) IsSpaceOrComment() bool { return k == Space || k == LineComment || k == BlockComment }

// Token is one lexical token: src[Start:End] of the text scanned.
type Token struct {
	Kind       Kind
	Start, End int

	// Unterminated marks a string, quoted identifier, comment or hint that
	// runs to the end of the input without its closing quote or `*/`.
	Unterminated bool

	// Misplaced marks a Hint that does not follow SELECT, INSERT, UPDATE,
	// DELETE or REPLACE with only white space between: MySQL reads it as a
	// plain comment.
	Misplaced bool
}

// Text returns the token's text in src, the text it was scanned from.
func (t Token) Text(src string) string { return src[t.Start:t.End] }

// PlaceholderName returns the name of a Placeholder token: the text
// between the braces, blanks trimmed.
func (t Token) PlaceholderName(src string) string {
	i, j := t.Start+2, t.End-2
	for i < j && isBlank(src[i]) {
		i++
	}
	for j > i && isBlank(src[j-1]) {
		j--
	}
	return src[i:j]
}

// Unquote returns the name a QuotedIdent token spells: backquotes
// removed, doubled backquotes halved.
func (t Token) Unquote(src string) string {
	inner := src[t.Start+1 : t.End]
	if !t.Unterminated {
		inner = inner[:len(inner)-1]
	}
	for i := 0; i < len(inner); i++ {
		if inner[i] == '`' {
			return unquoteBackticks(inner)
		}
	}
	return inner
}

func unquoteBackticks(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i])
		if s[i] == '`' && i+1 < len(s) && s[i+1] == '`' {
			i++
		}
	}
	return string(b)
}

// HintContent returns the offsets of a Hint token's content: after `/*+`,
// before `*/` (or the end, when unterminated).
func (t Token) HintContent() (start, end int) {
	end = t.End
	if !t.Unterminated {
		end -= 2
	}
	return t.Start + 3, end
}
