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
		toks, comments := tokenize(src, 0, len(src))
		if len(comments) != 1 || len(toks) != 4 {
			t.Errorf("%q: %d tokens, comments %v; want 4 tokens and 1 comment", src, len(toks), comments)
		}
	}
}

// The content of an executable comment is SQL to the server (and to the
// SQL parser): its words are tokens, not a comment.
func TestTokenizeExecutableComment(t *testing.T) {
	src := "SELECT /*!50100 STRAIGHT_JOIN */ a FROM t /*M x */"
	toks, comments := tokenize(src, 0, len(src))
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
