package sqllex

import "testing"

func TestPosition(t *testing.T) {
	src := "ab\ncd\n\nx"
	tests := []struct{ off, line, col int }{
		{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {6, 3, 1}, {7, 4, 1}, {8, 4, 2},
		{99, 4, 2}, {-1, 1, 1},
	}
	lines := NewLines(src)
	for _, tc := range tests {
		if l, c := Position(src, tc.off); l != tc.line || c != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
		if l, c := lines.Position(tc.off); l != tc.line || c != tc.col {
			t.Errorf("Lines.Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
	for line, want := range map[int]int{0: 0, 1: 0, 2: 3, 3: 6, 4: 7, 5: 7} {
		if got := lines.Start(line); got != want {
			t.Errorf("Start(%d) = %d, want %d", line, got, want)
		}
	}
	if l, c := NewLines("").Position(0); l != 1 || c != 1 {
		t.Errorf("empty text: %d:%d", l, c)
	}
}
