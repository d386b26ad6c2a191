package analyzer

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// TokKind classifies a lexical token of a scenario body.
type TokKind uint8

const (
	TokIdent       TokKind = iota // word or `quoted` identifier
	TokNumber                     // numeric literal
	TokString                     // '...' or "..." literal
	TokPlaceholder                // {{name}}
	TokHint                       // /*+ ... */ optimizer hint comment
	TokPunct                      // operator or punctuation
)

// Token is one lexical token; Start and End are byte offsets in the text
// that was tokenized. (Kind and the flags come last: packed together they
// make a token 56 bytes, not 64, and a file holds hundreds.)
type Token struct {
	Start, End   int
	Text         string // the raw text
	Word         string // upper-cased word for unquoted identifiers; unquoted name for quoted ones; the name of a placeholder
	Kind         TokKind
	Quoted       bool // a `quoted` identifier
	Misplaced    bool // a hint the server reads as a plain comment (sqllex.Token.Misplaced)
	Unterminated bool
}

// is reports whether t is the unquoted keyword kw (upper case).
func (t Token) Is(kw string) bool { return t.Kind == TokIdent && !t.Quoted && t.Word == kw }

// punct reports whether t is the punctuation p.
func (t Token) Punct(p string) bool { return t.Kind == TokPunct && t.Text == p }

// name is the identifier as SQL sees it (quotes removed, case kept).
func (t Token) Name() string {
	if t.Quoted {
		return t.Word
	}
	return t.Text
}

// comment is a `-- ...`, `# ...` or `/* ... */` comment (not a hint, not
// an executable comment).
type Comment struct {
	Start, End int
	Text       string
}

// tokenize splits src[from:to] into tokens and comments with sqllex. It
// never fails: an unterminated literal or comment runs to the end of the
// text. White space is dropped, and so are the markers of executable
// comments (`/*!` and its `*/`), whose content is SQL to the server and
// becomes tokens like the text around it. The tokens are appended to
// buf[:0] (a caller's buffer of a file done with, or nil).
func tokenize(src string, from, to int, buf []Token) ([]Token, []Comment) {
	// The built-in scenarios average a token per 4.1 bytes, none fewer
	// than a quarter of the length plus 8 (growing copied twice the
	// tokens; a third of the length was a quarter of lint's allocations).
	if n := (to-from)/4 + 8; cap(buf) < n {
		buf = make([]Token, 0, n)
	}
	return collect(sqllex.NewScanner(src[:to], from), src, newUpper(src, from, to), buf[:0])
}

// headerComments returns the comments of src[:end] (a scenario's
// header), without building tokens nobody reads.
func headerComments(src string, end int) []Comment {
	// A header is a comment a line, and the body seldom has one: room
	// for them all at once, rather than growing the slice line by line.
	out := make([]Comment, 0, strings.Count(src[:end], "\n")+2)
	s := sqllex.NewScanner(src[:end], 0)
	for t := s.NextNonSpace(); t.Kind != sqllex.EOF; t = s.NextNonSpace() {
		if t.Kind == sqllex.LineComment || t.Kind == sqllex.BlockComment {
			out = append(out, Comment{t.Start, t.End, src[t.Start:t.End]})
		}
	}
	return out
}

// tokenizeHint splits the content of a hint token, read as the server
// reads hints (no comments inside).
func tokenizeHint(src string, h Token) []Token {
	lt := sqllex.Token{Kind: sqllex.Hint, Start: h.Start, End: h.End, Unterminated: h.Unterminated}
	start, end := lt.HintContent()
	toks, _ := collect(sqllex.NewHintScanner(src, lt), src, newUpper(src, start, end), make([]Token, 0, 8))
	return toks
}

// upper is the upper case of the ASCII text src[off:], made once for all
// the words of a text (a ToUpper per word was most of the allocations of
// tokenizing).
type upper struct {
	text string
	off  int
}

// newUpper upper-cases src[from:to]: its ASCII letters; any other byte is
// kept, and a word holding one is upper-cased on its own (word).
func newUpper(src string, from, to int) upper {
	from, to = min(max(from, 0), len(src)), min(max(to, 0), len(src))
	if from >= to {
		return upper{off: from}
	}
	b := make([]byte, to-from)
	for i := range b {
		c := src[from+i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		b[i] = c
	}
	// b is never written again: the string shares it (as
	// strings.Builder does).
	return upper{text: unsafe.String(&b[0], len(b)), off: from}
}

// word returns strings.ToUpper(src[start:end]).
func (u upper) word(src string, start, end int) string {
	if start >= u.off && end <= u.off+len(u.text) {
		for i := start; i < end; i++ {
			if src[i] >= utf8.RuneSelf {
				return strings.ToUpper(src[start:end])
			}
		}
		return u.text[start-u.off : end-u.off]
	}
	return strings.ToUpper(src[start:end])
}

func collect(s *sqllex.Scanner, src string, up upper, toks []Token) ([]Token, []Comment) {
	var comments []Comment
	for {
		t := s.NextNonSpace()
		text := src[t.Start:t.End]
		switch t.Kind {
		case sqllex.EOF:
			return toks, comments
		case sqllex.ExecStart, sqllex.ExecEnd:
		case sqllex.LineComment, sqllex.BlockComment:
			comments = append(comments, Comment{t.Start, t.End, text})
		default:
			toks = append(toks, fromLex(src, t, text, up))
		}
	}
}

func fromLex(src string, t sqllex.Token, text string, up upper) Token {
	tok := Token{Start: t.Start, End: t.End, Text: text, Unterminated: t.Unterminated}
	switch t.Kind {
	case sqllex.Word:
		tok.Kind, tok.Word = TokIdent, up.word(src, t.Start, t.End)
	case sqllex.QuotedIdent:
		tok.Kind, tok.Word, tok.Quoted = TokIdent, t.Unquote(src), true
	case sqllex.Number:
		tok.Kind = TokNumber
	case sqllex.String:
		tok.Kind = TokString
	case sqllex.Placeholder:
		tok.Kind, tok.Word = TokPlaceholder, t.PlaceholderName(src)
	case sqllex.Hint:
		tok.Kind, tok.Misplaced = TokHint, t.Misplaced
	default:
		tok.Kind = TokPunct
	}
	return tok
}
