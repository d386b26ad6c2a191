package suggest

import "testing"

func TestClosest(t *testing.T) {
	keys := []string{"scenario", "description", "tags", "count", "param"}
	for _, tc := range []struct{ name, want string }{
		{"descripton", "description"},
		{"Descriptoin", "description"},
		{"tag", "tags"},
		{"scenario", ""}, // an exact match needs no suggestion
		{"owner", ""},    // nothing near
		{"cnt", "count"},
	} {
		if got := Closest(tc.name, keys); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := DidYouMean("rigth-join", []string{"right-join", "large-dml"}); got != "; did you mean right-join?" {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := Distance("kitten", "sitting"); got != 3 {
		t.Errorf("Distance(kitten, sitting) = %d, want 3", got)
	}
}
