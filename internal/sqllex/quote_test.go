package sqllex

import "testing"

func TestQuoteIdent(t *testing.T) {
	if got := QuoteIdent("a`b"); got != "`a``b`" {
		t.Errorf("QuoteIdent = %s", got)
	}
	src := QuoteIdent("x``y")
	toks, err := Tokens(src)
	if err != nil || len(toks) != 1 || toks[0].Unquote(src) != "x``y" {
		t.Errorf("QuoteIdent does not scan back: %q %v %v", src, toks, err)
	}
}
