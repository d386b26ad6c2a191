package sqllex

import (
	"fmt"
	"strings"
)

// Error is a lexical mistake at a byte offset of the text scanned.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// The messages of lexical errors, as users see them.
const (
	msgUnterminatedQuote   = "unterminated quoted text"
	msgUnterminatedComment = "unterminated comment"
	msgUnterminatedHint    = "unterminated optimizer hint"
	msgUnterminatedExec    = "unterminated executable comment"
	msgMalformedHolder     = "malformed placeholder: write {{name}}"
)

// Scanner reads the tokens of a text one by one. It never fails: a
// lexical mistake still yields tokens that cover the input, and Err
// reports the first one.
type Scanner struct {
	src  string
	pos  int
	hint bool // scanning the content of a hint: no comments

	inExec    bool // inside `/*!...*/`: the next `*/` closes it
	execStart int

	// the last token other than white space and comments, for the two
	// rules that look back: a hint follows a keyword, `.5` is a number
	// unless glued to what precedes it (prevEnd is -1 before the first)
	prevKind           Kind
	prevStart, prevEnd int

	err *Error
}

// NewScanner returns a scanner of src from the offset from; token offsets
// are offsets in src. To scan part of a text, pass src[:end].
func NewScanner(src string, from int) *Scanner {
	return &Scanner{src: src, pos: min(max(from, 0), len(src)), prevEnd: -1}
}

// NewHintScanner returns a scanner of the content of the Hint token t of
// src. It reads the content as MySQL's hint parser does: `#`, `-- ` and
// `/*` are not comments there.
func NewHintScanner(src string, t Token) *Scanner {
	start, end := t.HintContent()
	s := NewScanner(src[:end], start)
	s.hint = true
	return s
}

// Err returns the first lexical error met so far, or nil: an unterminated
// string, identifier, comment, hint or executable comment (reported once
// the end is reached), or a malformed placeholder. In the content of a
// hint only a malformed placeholder is an error: an unterminated quote
// there breaks the hint, which the server ignores with a warning, not the
// statement.
func (s *Scanner) Err() *Error { return s.err }

func (s *Scanner) fail(off int, msg string) {
	if s.err == nil {
		s.err = &Error{Offset: off, Msg: msg}
	}
}

// Tokens returns every token of src, white space and comments included,
// with the first lexical error.
func Tokens(src string) ([]Token, *Error) {
	s := NewScanner(src, 0)
	var out []Token
	for {
		t := s.Next()
		if t.Kind == EOF {
			return out, s.Err()
		}
		out = append(out, t)
	}
}

// Next returns the next token, or a token of kind EOF at the end.
func (s *Scanner) Next() Token { return s.next(false) }

// NextNonSpace returns the next token that is not white space, for
// callers that drop it anyway.
func (s *Scanner) NextNonSpace() Token { return s.next(true) }

func (s *Scanner) next(skipSpace bool) Token {
	src, i := s.src, s.pos
	if i >= len(src) {
		return s.eof()
	}
	class := classes[src[i]]
	if class == classSpace {
		j := i + 1
		for j < len(src) && classes[src[j]] == classSpace {
			j++
		}
		if !skipSpace {
			return s.emit(Space, j)
		}
		s.pos, i = j, j
		if i == len(src) {
			return s.eof()
		}
		class = classes[src[i]]
	}
	switch class {
	case classWord:
		j := i + 1
		for j < len(src) && wordBytes[src[j]] {
			j++
		}
		return s.emit(Word, j)
	case classDigit:
		return s.number()
	case classPunct:
		return s.emit(Punct, i+punctLen(src, i))
	}
	return s.special(src[i])
}

// eof returns the EOF token, reporting an executable comment left open.
func (s *Scanner) eof() Token {
	if s.inExec {
		s.fail(s.execStart, msgUnterminatedExec)
		s.inExec = false
	}
	return Token{Kind: EOF, Start: len(s.src), End: len(s.src)}
}

// special scans a token starting with a byte that needs a closer look.
func (s *Scanner) special(c byte) Token {
	src, i := s.src, s.pos
	switch {
	case !s.hint && (c == '#' || c == '-' && isDashComment(src, i)):
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			return s.emit(LineComment, len(src))
		}
		return s.emit(LineComment, i+j)
	case !s.hint && c == '/' && i+1 < len(src) && src[i+1] == '*':
		return s.slashStar()
	case c == '*' && s.inExec && i+1 < len(src) && src[i+1] == '/':
		s.inExec = false
		return s.emit(ExecEnd, i+2)
	case c == '{' && i+1 < len(src) && src[i+1] == '{':
		if end := placeholderEnd(src, i); end > 0 {
			return s.emit(Placeholder, end)
		}
		s.fail(i, msgMalformedHolder)
		return s.emit(Punct, i+1)
	case c == '\'' || c == '"':
		return s.quoted(String, c)
	case c == '`':
		return s.quoted(QuotedIdent, c)
	case c == '.' && i+1 < len(src) && isDigit(src[i+1]) && s.prevEnd != i: // not t.5
		return s.number()
	}
	return s.emit(Punct, i+punctLen(src, i))
}

// number scans a run of word bytes and dots that starts with a digit, or
// a dot and a digit: a Number, or a Word such as 1abc.
func (s *Scanner) number() Token {
	src, i := s.src, s.pos
	j := i + 1
	for j < len(src) && (isWordByte(src[j]) || src[j] == '.') {
		j++
	}
	if isNumber(src[i:j]) {
		return s.emit(Number, j)
	}
	return s.emit(Word, j)
}

// emit returns the token of kind k from the current offset to end and
// moves past it.
func (s *Scanner) emit(k Kind, end int) Token {
	t := Token{Kind: k, Start: s.pos, End: end}
	s.pos = end
	switch k {
	case Space, LineComment, BlockComment, ExecStart, ExecEnd:
	default:
		s.prevKind, s.prevStart, s.prevEnd = k, t.Start, end
	}
	return t
}

// slashStar scans a token starting with `/*`.
func (s *Scanner) slashStar() Token {
	src, i := s.src, s.pos
	if j, ok := execMarkerEnd(src, i); ok {
		if !s.inExec {
			s.inExec, s.execStart = true, i
		}
		return s.emit(ExecStart, j)
	}
	kind, msg := BlockComment, msgUnterminatedComment
	if i+2 < len(src) && src[i+2] == '+' {
		kind, msg = Hint, msgUnterminatedHint
	}
	end, closed := len(src), false
	if j := strings.Index(src[i+2:], "*/"); j >= 0 {
		end, closed = i+2+j+2, true
	}
	misplaced := kind == Hint && !s.hintPlaced(i)
	t := s.emit(kind, end)
	t.Misplaced = misplaced
	if !closed {
		t.Unterminated = true
		s.fail(i, msg)
	}
	return t
}

// hintPlaced reports whether a hint at offset i follows a keyword that
// takes hints with only white space between, the one place MySQL reads
// hints (everywhere else `/*+` opens a plain comment).
func (s *Scanner) hintPlaced(i int) bool {
	if s.prevKind != Word {
		return false
	}
	for j := s.prevEnd; j < i; j++ {
		if !isSpace(s.src[j]) {
			return false
		}
	}
	return takesHint(s.src[s.prevStart:s.prevEnd])
}

// takesHint reports whether an optimizer hint comment may follow the
// keyword word (any case): SELECT, INSERT, UPDATE, DELETE or REPLACE.
func takesHint(word string) bool {
	switch len(word) {
	case 6:
		return strings.EqualFold(word, "SELECT") || strings.EqualFold(word, "INSERT") ||
			strings.EqualFold(word, "UPDATE") || strings.EqualFold(word, "DELETE")
	case 7:
		return strings.EqualFold(word, "REPLACE")
	}
	return false
}

// quoted scans a string or quoted identifier opened by q at s.pos. In
// strings a backslash escapes the next byte; in both, a doubled quote
// stands for one.
func (s *Scanner) quoted(k Kind, q byte) Token {
	src, i := s.src, s.pos
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			if j+1 < len(src) && src[j+1] == q {
				j++
				continue
			}
			return s.emit(k, j+1)
		}
	}
	t := s.emit(k, len(src))
	t.Unterminated = true
	if !s.hint {
		// in a hint the server only warns and ignores the hint
		s.fail(i, msgUnterminatedQuote)
	}
	return t
}

// isDashComment reports whether the `-` at src[i] opens a `-- ` comment:
// MySQL wants a second dash, then white space, a control character or the
// end of the input. So `--x` and `a--1` are not comments.
func isDashComment(src string, i int) bool {
	if i+1 >= len(src) || src[i+1] != '-' {
		return false
	}
	return i+2 == len(src) || src[i+2] <= ' ' || src[i+2] == 0x7f
}

// execMarkerEnd returns the end of an executable comment's opening marker
// at src[i]: `/*!` or MariaDB's `/*M!`, then a version of 5 digits, or 6
// when a sixth follows.
func execMarkerEnd(src string, i int) (int, bool) {
	j := i + 2
	if j < len(src) && src[j] == 'M' {
		j++
	}
	if j >= len(src) || src[j] != '!' {
		return 0, false
	}
	j++
	n := 0
	for n < 6 && j+n < len(src) && isDigit(src[j+n]) {
		n++
	}
	if n >= 5 {
		j += n
	}
	return j, true
}

// placeholderEnd returns the end of the placeholder `{{ name }}` at
// src[i], or 0 when the text there is not one. Blanks (space, tab) may
// surround the name, a letter or _ then letters, digits and _.
func placeholderEnd(src string, i int) int {
	j := i + 2
	for j < len(src) && isBlank(src[j]) {
		j++
	}
	k := j
	for k < len(src) && (src[k] == '_' || isLetter(src[k]) || k > j && isDigit(src[k])) {
		k++
	}
	if k == j {
		return 0
	}
	for k < len(src) && isBlank(src[k]) {
		k++
	}
	if !strings.HasPrefix(src[k:], "}}") {
		return 0
	}
	return k + 2
}

// punctLen is the length of the operator at src[i]: the two- and
// three-byte operators the callers look at, else one byte.
func punctLen(src string, i int) int {
	if i+1 >= len(src) {
		return 1
	}
	switch src[i : i+2] {
	case "<=":
		if i+2 < len(src) && src[i+2] == '>' {
			return 3
		}
		return 2
	case ">=", "<>", "!=", ":=", "||", "&&", "<<", ">>", "->":
		return 2
	}
	return 1
}

// isNumber reports whether a run of word bytes and dots that starts with
// a digit or a dot is a numeric literal (12, 1.5, .5, 1e9, 0x1F, 0b101)
// rather than an identifier (1abc).
func isNumber(s string) bool {
	dot, exp := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
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

// Byte classes: the first byte of most tokens tells their kind; the
// others need a closer look.
const (
	classSpecial = iota // # - / * { ' " ` .
	classSpace
	classWord
	classDigit
	classPunct
)

var classes = func() (t [256]uint8) {
	for c := range 256 {
		switch b := byte(c); {
		case b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v':
			t[c] = classSpace
		case b >= '0' && b <= '9':
			t[c] = classDigit
		case b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80:
			t[c] = classWord
		case strings.IndexByte("#-/*{'\"`.", b) >= 0:
			t[c] = classSpecial
		default:
			t[c] = classPunct
		}
	}
	return t
}()

func isSpace(c byte) bool { return classes[c] == classSpace }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isDigit(c byte) bool { return classes[c] == classDigit }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// IsWordByte reports whether c may appear in an unquoted identifier:
// letters, digits, _, $ and every byte of a multi-byte UTF-8 character.
func IsWordByte(c byte) bool { return isWordByte(c) }

func isWordByte(c byte) bool { return wordBytes[c] }

var wordBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = classes[c] == classWord || classes[c] == classDigit
	}
	return t
}()
