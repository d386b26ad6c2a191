package sqllex

import (
	"strconv"
	"strings"
	"testing"
)

// show renders tokens as `Kind:"text"` separated by spaces, white space
// left out, with + for Unterminated and ~ for Misplaced.
func show(src string, toks []Token) string {
	var b strings.Builder
	for _, t := range toks {
		if t.Kind == Space {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Kind.String())
		b.WriteByte(':')
		b.WriteString(strconv.Quote(t.Text(src)))
		if t.Unterminated {
			b.WriteByte('+')
		}
		if t.Misplaced {
			b.WriteByte('~')
		}
	}
	return b.String()
}

func TestTokens(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"words and punctuation", "SELECT a.b, c FROM t;",
			`Word:"SELECT" Word:"a" Punct:"." Word:"b" Punct:"," Word:"c" Word:"FROM" Word:"t" Punct:";"`},
		{"operators", "a<=>b <= c >= d <> e != f := g || h && i << j >> k -> l ->> m",
			`Word:"a" Punct:"<=>" Word:"b" Punct:"<=" Word:"c" Punct:">=" Word:"d" Punct:"<>" Word:"e" Punct:"!=" Word:"f" Punct:":=" Word:"g" Punct:"||" Word:"h" Punct:"&&" Word:"i" Punct:"<<" Word:"j" Punct:">>" Word:"k" Punct:"->" Word:"l" Punct:"->" Punct:">" Word:"m"`},
		{"bare question mark", "a = ?", `Word:"a" Punct:"=" Punct:"?"`},
		{"numbers", "1 1.5 .5 1e9 0x1F 0b101 1abc 1.2.3",
			`Number:"1" Number:"1.5" Number:".5" Number:"1e9" Number:"0x1F" Number:"0b101" Word:"1abc" Word:"1.2.3"`},
		{"dot after a name is punctuation", "t.5 t .5",
			`Word:"t" Punct:"." Number:"5" Word:"t" Number:".5"`},
		{"dot after a comment starts a number", "a/**/.5",
			`Word:"a" BlockComment:"/**/" Number:".5"`},
		{"words with $, _ and UTF-8", "$a _b été",
			`Word:"$a" Word:"_b" Word:"été"`},
		{"user variables", "@a @@b", `Punct:"@" Word:"a" Punct:"@" Punct:"@" Word:"b"`},

		{"single-quoted string", `'a''b\'c'`, `String:"'a''b\\'c'"`},
		{"double-quoted string", `"a""b\"c"`, `String:"\"a\"\"b\\\"c\""`},
		{"backquoted identifier", "`a``b`", "QuotedIdent:\"`a``b`\""},
		{"backslash does not escape in identifiers", "`a\\` b", "QuotedIdent:\"`a\\\\`\" Word:\"b\""},
		{"unterminated string", "x 'abc", `Word:"x" String:"'abc"+`},
		{"unterminated by a final backslash", `'abc\`, `String:"'abc\\"+`},
		{"unterminated by a doubled quote", `'abc''`, `String:"'abc''"+`},
		{"unterminated identifier", "`abc", "QuotedIdent:\"`abc\"+"},
		{"comment opener inside a string", "'/* x' y", `String:"'/* x'" Word:"y"`},
		{"line comment inside a string", "'-- x' \"# y\"", `String:"'-- x'" String:"\"# y\""`},
		{"quote inside a comment", "/* it's */ x", `BlockComment:"/* it's */" Word:"x"`},

		{"hash comment", "a # c\nb", `Word:"a" LineComment:"# c" Word:"b"`},
		{"hash comment at end", "a #", `Word:"a" LineComment:"#"`},
		{"dash comment with space", "a -- c\nb", `Word:"a" LineComment:"-- c" Word:"b"`},
		{"dash comment with tab", "a --\tc", `Word:"a" LineComment:"--\tc"`},
		{"dash comment with newline", "a --\nb", `Word:"a" LineComment:"--" Word:"b"`},
		{"dash comment with CR", "a --\r\nb", `Word:"a" LineComment:"--\r" Word:"b"`},
		{"dash comment with form feed", "a --\fc", `Word:"a" LineComment:"--\fc"`},
		{"dash comment with vertical tab", "a --\vc", `Word:"a" LineComment:"--\vc"`},
		{"dash comment with a control character", "a --\x01c", `Word:"a" LineComment:"--\x01c"`},
		{"dash comment with DEL", "a --\x7fc", `Word:"a" LineComment:"--\x7fc"`},
		{"dash comment at end of input", "a --", `Word:"a" LineComment:"--"`},
		{"dash without space is not a comment", "a --x", `Word:"a" Punct:"-" Punct:"-" Word:"x"`},
		{"double minus before a number", "a--1", `Word:"a" Punct:"-" Punct:"-" Number:"1"`},
		{"single dash at end", "a -", `Word:"a" Punct:"-"`},
		{"block comment", "a /* c\n d */ b", `Word:"a" BlockComment:"/* c\n d */" Word:"b"`},
		{"empty block comment", "/**/", `BlockComment:"/**/"`},
		{"block comments do not nest", "/* a /* b */ c */", `BlockComment:"/* a /* b */" Word:"c" Punct:"*" Punct:"/"`},
		{"unterminated block comment", "a /* c", `Word:"a" BlockComment:"/* c"+`},
		{"slash star slash is unterminated", "/*/", `BlockComment:"/*/"+`},
		{"division", "a / b * c", `Word:"a" Punct:"/" Word:"b" Punct:"*" Word:"c"`},

		{"executable comment", "SELECT /*! STRAIGHT_JOIN */ a",
			`Word:"SELECT" ExecStart:"/*!" Word:"STRAIGHT_JOIN" ExecEnd:"*/" Word:"a"`},
		{"versioned executable comment", "/*!50100 PARTITION p */",
			`ExecStart:"/*!50100" Word:"PARTITION" Word:"p" ExecEnd:"*/"`},
		{"six-digit version", "/*!100301 x */", `ExecStart:"/*!100301" Word:"x" ExecEnd:"*/"`},
		{"four digits are not a version", "/*!4010 x */", `ExecStart:"/*!" Number:"4010" Word:"x" ExecEnd:"*/"`},
		{"MariaDB executable comment", "/*M!100301 x */", `ExecStart:"/*M!100301" Word:"x" ExecEnd:"*/"`},
		{"M without bang is a comment", "/*M x */", `BlockComment:"/*M x */"`},
		{"string inside an executable comment", "/*! 'a */ b' */",
			`ExecStart:"/*!" String:"'a */ b'" ExecEnd:"*/"`},
		{"comment inside an executable comment", "/*!50100 a /* b */ c */ d",
			`ExecStart:"/*!50100" Word:"a" BlockComment:"/* b */" Word:"c" ExecEnd:"*/" Word:"d"`},
		{"placeholder inside an executable comment", "/*! {{m}} */",
			`ExecStart:"/*!" Placeholder:"{{m}}" ExecEnd:"*/"`},
		{"star slash outside an executable comment", "a */ b", `Word:"a" Punct:"*" Punct:"/" Word:"b"`},
		{"unterminated executable comment", "/*! a", `ExecStart:"/*!" Word:"a"`},

		{"hint after SELECT", "SELECT /*+ BKA(t) */ a",
			`Word:"SELECT" Hint:"/*+ BKA(t) */" Word:"a"`},
		{"hint glued to the keyword", "select/*+ BKA(t) */", `Word:"select" Hint:"/*+ BKA(t) */"`},
		{"hint after each keyword", "INSERT /*+ a */ UPDATE /*+ b */ DELETE /*+ c */ REPLACE /*+ d */",
			`Word:"INSERT" Hint:"/*+ a */" Word:"UPDATE" Hint:"/*+ b */" Word:"DELETE" Hint:"/*+ c */" Word:"REPLACE" Hint:"/*+ d */"`},
		{"hint after another word", "SELECT a /*+ BKA(t) */", `Word:"SELECT" Word:"a" Hint:"/*+ BKA(t) */"~`},
		{"hint at the start", "/*+ BKA(t) */ SELECT", `Hint:"/*+ BKA(t) */"~ Word:"SELECT"`},
		{"hint after a comment", "SELECT /* c */ /*+ BKA(t) */",
			`Word:"SELECT" BlockComment:"/* c */" Hint:"/*+ BKA(t) */"~`},
		{"hint after a quoted name", "`SELECT` /*+ a */", "QuotedIdent:\"`SELECT`\" Hint:\"/*+ a */\"~"},
		{"hint ends at the first star slash", "SELECT /*+ a '*/' */",
			`Word:"SELECT" Hint:"/*+ a '*/" String:"' */"+`},
		{"unterminated hint", "SELECT /*+ BKA(t)", `Word:"SELECT" Hint:"/*+ BKA(t)"+`},
		{"hint inside an executable comment", "/*!80000 SELECT /*+ BKA(t) */ 1 */",
			`ExecStart:"/*!80000" Word:"SELECT" Hint:"/*+ BKA(t) */" Number:"1" ExecEnd:"*/"`},

		{"placeholder", "a = {{x}}", `Word:"a" Punct:"=" Placeholder:"{{x}}"`},
		{"placeholder with blanks", "{{ x_1\t}}", `Placeholder:"{{ x_1\t}}"`},
		{"placeholder glued to text", "t{{m}}_x", `Word:"t" Placeholder:"{{m}}" Word:"_x"`},
		{"placeholder in a string", "'{{x}}'", `String:"'{{x}}'"`},
		{"placeholder in an identifier", "`{{x}}`", "QuotedIdent:\"`{{x}}`\""},
		{"placeholder in a comment", "-- {{x}}\n/* {{y}} */ # {{z}}", `LineComment:"-- {{x}}" BlockComment:"/* {{y}} */" LineComment:"# {{z}}"`},
		{"placeholder in a hint stays in the hint", "SELECT /*+ BKA({{m}}) */", `Word:"SELECT" Hint:"/*+ BKA({{m}}) */"`},
		{"malformed placeholder: digit", "{{1}}", `Punct:"{" Punct:"{" Number:"1" Punct:"}" Punct:"}"`},
		{"malformed placeholder: two words", "{{a b}}", `Punct:"{" Punct:"{" Word:"a" Word:"b" Punct:"}" Punct:"}"`},
		{"malformed placeholder: unclosed", "{{a", `Punct:"{" Punct:"{" Word:"a"`},
		{"three braces", "{{{m}}", `Punct:"{" Placeholder:"{{m}}"`},
		{"single braces", "{d '2020-01-01'}", `Punct:"{" Word:"d" String:"'2020-01-01'" Punct:"}"`},

		{"control bytes are punctuation", "a\x00b", `Word:"a" Punct:"\x00" Word:"b"`},
		{"empty input", "", ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks, _ := Tokens(tc.src)
			if got := show(tc.src, toks); got != tc.want {
				t.Errorf("Tokens(%q)\n got %s\nwant %s", tc.src, got, tc.want)
			}
			checkCover(t, tc.src, 0, toks)
			checkNonSpace(t, tc.src, toks)
		})
	}
}

// checkNonSpace fails unless NextNonSpace returns the tokens of toks
// that are not white space.
func checkNonSpace(t *testing.T, src string, toks []Token) {
	t.Helper()
	s := NewScanner(src, 0)
	for _, want := range toks {
		if want.Kind == Space {
			continue
		}
		if got := s.NextNonSpace(); got != want {
			t.Fatalf("NextNonSpace = %+v, want %+v (src %q)", got, want, src)
		}
	}
	if got := s.NextNonSpace(); got.Kind != EOF {
		t.Fatalf("NextNonSpace = %+v, want EOF (src %q)", got, src)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		src     string
		off     int
		msg     string
		noError bool
	}{
		{src: "SELECT 'abc", off: 7, msg: "unterminated quoted text"},
		{src: "SELECT \"abc", off: 7, msg: "unterminated quoted text"},
		{src: "SELECT `abc", off: 7, msg: "unterminated quoted text"},
		{src: "SELECT 1 /* c", off: 9, msg: "unterminated comment"},
		{src: "SELECT /*+ BKA(t)", off: 7, msg: "unterminated optimizer hint"},
		{src: "SELECT /*!50100 1", off: 7, msg: "unterminated executable comment"},
		{src: "SELECT /*!50100 1 /*! 2 */ /*! 3", off: 27, msg: "unterminated executable comment"},
		{src: "SELECT {{ 1 }}", off: 7, msg: "malformed placeholder: write {{name}}"},
		{src: "SELECT 'a' /* x", off: 11, msg: "unterminated comment"},
		{src: "SELECT 'abc /* x", off: 7, msg: "unterminated quoted text"},
		{src: "SELECT 1 -- 'x", noError: true},
		{src: "SELECT 1 --", noError: true},
		{src: "SELECT '{{' -- {{\n/* {{ */", noError: true},
		{src: "SELECT /*! 1 */ /*+ x */ 'a''' `b```", noError: true},
	}
	for _, tc := range tests {
		_, err := Tokens(tc.src)
		if tc.noError {
			if err != nil {
				t.Errorf("Tokens(%q): unexpected error %v", tc.src, err)
			}
			continue
		}
		if err == nil || err.Offset != tc.off || err.Msg != tc.msg {
			t.Errorf("Tokens(%q): error %v, want offset %d: %s", tc.src, err, tc.off, tc.msg)
		}
	}
}

func TestScanFromOffset(t *testing.T) {
	src := "-- head\nSELECT a -- tail"
	s := NewScanner(src[:16], 8)
	var got []Token
	for tok := s.Next(); tok.Kind != EOF; tok = s.Next() {
		got = append(got, tok)
	}
	if w := `Word:"SELECT" Word:"a"`; show(src, got) != w {
		t.Errorf("got %s, want %s", show(src, got), w)
	}
	if got[0].Start != 8 {
		t.Errorf("offsets are not in src: %+v", got[0])
	}
	if eof := s.Next(); eof.Kind != EOF || eof.Start != 16 || s.Next().Kind != EOF {
		t.Errorf("end: %+v", eof)
	}
}

func TestHintScanner(t *testing.T) {
	tests := []struct{ src, want string }{
		{"SELECT /*+ JOIN_ORDER(a, `b c`) BKA({{m}}) */",
			"Word:\"JOIN_ORDER\" Punct:\"(\" Word:\"a\" Punct:\",\" QuotedIdent:\"`b c`\" Punct:\")\" Word:\"BKA\" Punct:\"(\" Placeholder:\"{{m}}\" Punct:\")\""},
		// no comments inside a hint: MySQL's hint scanner has none
		{"SELECT /*+ BKA(t) # NO_BKA(u) -- x */",
			`Word:"BKA" Punct:"(" Word:"t" Punct:")" Punct:"#" Word:"NO_BKA" Punct:"(" Word:"u" Punct:")" Punct:"-" Punct:"-" Word:"x"`},
		{"SELECT /*+ a /* b */", `Word:"a" Punct:"/" Punct:"*" Word:"b"`},
		{"SELECT /*+ QB_NAME(qb) BKA(t@qb)", `Word:"QB_NAME" Punct:"(" Word:"qb" Punct:")" Word:"BKA" Punct:"(" Word:"t" Punct:"@" Word:"qb" Punct:")"`},
		{"SELECT /*+*/", ``},
	}
	for _, tc := range tests {
		toks, _ := Tokens(tc.src)
		var hint Token
		for _, tok := range toks {
			if tok.Kind == Hint {
				hint = tok
			}
		}
		if hint.Kind != Hint {
			t.Fatalf("%q: no hint", tc.src)
		}
		s := NewHintScanner(tc.src, hint)
		var got []Token
		for tok := s.Next(); tok.Kind != EOF; tok = s.Next() {
			got = append(got, tok)
		}
		if show(tc.src, got) != tc.want {
			t.Errorf("hint of %q\n got %s\nwant %s", tc.src, show(tc.src, got), tc.want)
		}
		start, end := hint.HintContent()
		checkCover(t, tc.src[:end], start, got)
	}
}

func TestTokenHelpers(t *testing.T) {
	src := "`a``b` {{ name\t}} `x"
	toks, _ := Tokens(src)
	var words []Token
	for _, tok := range toks {
		if tok.Kind != Space {
			words = append(words, tok)
		}
	}
	if got := words[0].Unquote(src); got != "a`b" {
		t.Errorf("Unquote = %q", got)
	}
	if got := words[1].PlaceholderName(src); got != "name" {
		t.Errorf("PlaceholderName = %q", got)
	}
	if got := words[2].Unquote(src); got != "x" {
		t.Errorf("Unquote of an unterminated identifier = %q", got)
	}
	for _, w := range []string{"select", "Insert", "UPDATE", "delete", "REPLACE"} {
		if !takesHint(w) {
			t.Errorf("takesHint(%q) = false", w)
		}
	}
	for _, w := range []string{"SET", "WITH", "SELECTS", "REPLAC", ""} {
		if takesHint(w) {
			t.Errorf("takesHint(%q) = true", w)
		}
	}
	if Kind(99).String() != "Kind(99)" || Hint.String() != "Hint" {
		t.Error("Kind.String")
	}
}

// checkCover fails unless toks cover src[from:] in order, each token
// non-empty, without gaps or overlaps.
func checkCover(t *testing.T, src string, from int, toks []Token) {
	t.Helper()
	at := from
	for _, tok := range toks {
		if tok.Start != at || tok.End <= tok.Start || tok.End > len(src) {
			t.Fatalf("token %+v at %d: gap, overlap or empty token (src %q)", tok, at, src)
		}
		at = tok.End
	}
	if at != len(src) {
		t.Fatalf("tokens end at %d, src at %d (src %q)", at, len(src), src)
	}
}

func TestHintScannerErrors(t *testing.T) {
	tests := []struct {
		src string
		off int // -1: no error
	}{
		{"SELECT /*+ QB_NAME('x) */", -1},
		{"SELECT /*+ BKA(`t) */", -1},
		{"SELECT /*+ BKA({{ 1 }}) */", 15},
		{"SELECT /*+ BKA('{{ 1 }}') */", -1},
	}
	for _, tc := range tests {
		toks, _ := Tokens(tc.src)
		s := NewHintScanner(tc.src, toks[2])
		for s.Next().Kind != EOF {
		}
		err := s.Err()
		switch {
		case tc.off < 0 && err != nil:
			t.Errorf("%q: unexpected error %v", tc.src, err)
		case tc.off >= 0 && (err == nil || err.Offset != tc.off):
			t.Errorf("%q: error %v, want one at offset %d", tc.src, err, tc.off)
		}
	}
}
