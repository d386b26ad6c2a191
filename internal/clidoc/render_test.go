package clidoc

import (
	"io"
	"strings"
	"testing"
)

// checkRendering renders twice and checks that the output holds every
// text of want and none of unwanted, and that both renderings of one
// model are the same; it returns the output.
func checkRendering(t *testing.T, render func(io.Writer) error, want, unwanted []string) string {
	t.Helper()
	var b strings.Builder
	if err := render(&b); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the rendering lacks %q\n%s", w, got)
		}
	}
	for _, u := range unwanted {
		if strings.Contains(got, u) {
			t.Errorf("the rendering has %q\n%s", u, got)
		}
	}
	var again strings.Builder
	if err := render(&again); err != nil || again.String() != got {
		t.Errorf("two renderings of one model differ (%v)", err)
	}
	return got
}
