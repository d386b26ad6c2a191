package analyzer

import (
	"strings"
	"testing"
)

// The cases below are where the analyzer's own tokenizer, before sqllex,
// read SQL differently from MySQL.

// `--` followed by any control character (not only space, tab, CR, LF)
// opens a comment.
func TestTokenizeDashCommentControlCharacters(t *testing.T) {
	for _, c := range []string{"\f", "\v", "\x01", "\x7f"} {
		src := "SELECT 1 --" + c + "x\nFROM t"
		toks, comments := tokenize(src, 0, len(src), nil)
		if len(comments) != 1 || len(toks) != 4 {
			t.Errorf("%q: %d tokens, comments %v; want 4 tokens and 1 comment", src, len(toks), comments)
		}
	}
}

// The content of an executable comment is SQL to the server (and to the
// SQL parser): its words are tokens, not a comment.
func TestTokenizeExecutableComment(t *testing.T) {
	src := "SELECT /*!50100 STRAIGHT_JOIN */ a FROM t /*M x */"
	toks, comments := tokenize(src, 0, len(src), nil)
	var words []string
	for _, tok := range toks {
		words = append(words, tok.Text)
	}
	if got := strings.Join(words, " "); got != "SELECT STRAIGHT_JOIN a FROM t" || len(comments) != 1 {
		t.Errorf("tokens %q, comments %v", got, comments)
	}
}

// A hint's content holds no comments: `#` and `-- ` are not comments in
// MySQL's hint scanner, so what follows them is still hint text.
func TestNoCommentsInsideHints(t *testing.T) {
	src := "SELECT /*+ BKA(t) # NO_BKA(t) -- MRR(t)\n */ 1 FROM t"
	u := newUnit("h.sql", src, nil, nil, &Options{})
	if len(u.hints) != 1 {
		t.Fatalf("%d hint comments", len(u.hints))
	}
	var names []string
	for _, h := range u.hints[0].Hints {
		names = append(names, h.Name)
	}
	if got := strings.Join(names, " "); got != "BKA NO_BKA MRR" {
		t.Errorf("hints %q, want BKA NO_BKA MRR", got)
	}
	if len(u.comments) != 0 {
		t.Errorf("comments %v, want none", u.comments)
	}
}

// A word's Word is strings.ToUpper of its text, ASCII or not, however
// the upper case is made (once per text), and a reused buffer gives the
// tokens a new one gives.
func TestTokenWordsUpperCased(t *testing.T) {
	src := "select Größe, ǆx, naïve_Col, `q`, /*+ bka(tAb) */ x FROM t1 JOIN ŧ2 ON ŧ2.ĸ = t1.a"
	var buf []Token
	for range 2 {
		toks, _ := tokenize(src, 0, len(src), buf)
		fresh, _ := tokenize(src, 0, len(src), nil)
		if len(toks) != len(fresh) {
			t.Fatalf("%d tokens with a reused buffer, %d with none", len(toks), len(fresh))
		}
		for i, tok := range toks {
			if tok != fresh[i] {
				t.Errorf("token %d: %+v with a reused buffer, %+v with none", i, tok, fresh[i])
			}
			if tok.Kind == TokIdent && !tok.Quoted && tok.Word != strings.ToUpper(tok.Text) {
				t.Errorf("token %q: Word %q, want %q", tok.Text, tok.Word, strings.ToUpper(tok.Text))
			}
		}
		buf = toks[:0]
	}
	for _, h := range tokenizeHint(src, Token{Kind: TokHint, Start: strings.Index(src, "/*+"), End: strings.Index(src, "*/") + 2}) {
		if h.Kind == TokIdent && h.Word != strings.ToUpper(h.Text) {
			t.Errorf("hint token %q: Word %q", h.Text, h.Word)
		}
	}
}
