package sqllex

import "testing"

// FuzzScanner: no input makes the scanner panic or loop, its tokens cover
// the input without gaps or overlaps, NextNonSpace agrees with Next, an
// error lies inside the input, and so do the tokens of every hint's
// content.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		"SELECT /*+ BKA(t) */ a, 'b''c', `d``e`, \"f\\\"g\" FROM {{m}} -- c\n# d\n/* e */ WHERE x = .5;",
		"/*!50100 a /* b */ c */ /*M!100301 d */ /*! e",
		"a--1 --\tb\n--x {{ a }} {{1}} {{{m}} '{{' ?",
		"SELECT /*+ a '*/' */ /*+ #b -- c /* d */",
		"'\\", "`", "/*", "/*!", "/*+", "--", "{{", "*/", "\x00\x7f\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		toks, err := Tokens(src)
		checkCover(t, src, 0, toks)
		checkNonSpace(t, src, toks)
		if err != nil && (err.Offset < 0 || err.Offset >= len(src)) {
			t.Fatalf("error outside the input: %v", err)
		}
		for _, h := range toks {
			if h.Kind != Hint {
				continue
			}
			start, end := h.HintContent()
			s := NewHintScanner(src, h)
			var inner []Token
			for tok := s.Next(); tok.Kind != EOF; tok = s.Next() {
				inner = append(inner, tok)
			}
			checkCover(t, src[:end], start, inner)
		}
	})
}
