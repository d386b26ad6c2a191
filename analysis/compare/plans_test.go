package compare

import "testing"

func TestLineDiff(t *testing.T) {
	got := LineDiff("a\nb\nc", "a\nx\nc")
	if got != "  a\n- b\n+ x\n  c\n" {
		t.Errorf("diff:\n%s", got)
	}
}
