package corpus

import (
	"strings"
	"testing"
)

func TestDateKind(t *testing.T) {
	for decl, want := range map[string]string{
		"date(2025-06-01,2025-06-03)": "",
		"date(2025-06-03,2025-06-01)": "the low bound is above the high bound",
		"date(2025-6-1,2025-06-03)":   `"2025-6-1" is not a day written YYYY-MM-DD`,
		"date(2025-06-01)":            "date takes 2 arguments, got 1",
		"date(1000-01-01,9999-12-31)": "more than 100000 days",
	} {
		_, err := ParseFile("x.sql", []byte("-- param p: "+decl+"\nSELECT {{p}}"))
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", decl, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: err = %v, want %q", decl, err, want)
		}
	}
	s, err := ParseFile("x.sql", []byte("-- param p: date(2024-02-28,2024-03-01)\nSELECT {{p}}"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := Compile(s, builtinSchema(t, 1), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[any]bool{}
	r := tmpl.NewRenderer(1, 0)
	for i := 0; i < 100; i++ {
		seen[r.Next()[0].Args[0]] = true
	}
	if len(seen) != 3 || !seen["2024-02-28"] || !seen["2024-02-29"] || !seen["2024-03-01"] {
		t.Errorf("days drawn: %v, want the three of the range", seen)
	}
}
