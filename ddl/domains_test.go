package ddl

import (
	"strings"
	"testing"
)

func TestDomainsMatchTheWorkload(t *testing.T) {
	want := map[string]int{"continent": 7, "color": 20, "status": 3, "permission": 4, "record_code": 50}
	for _, name := range DomainNames() {
		vals, ok := Domain(name)
		if !ok {
			t.Fatalf("Domain(%q) missing", name)
		}
		if len(vals) != want[name] {
			t.Errorf("%s has %d values, want %d", name, len(vals), want[name])
		}
		seen := map[string]bool{}
		for _, v := range vals {
			if seen[v] {
				t.Errorf("%s: %q twice", name, v)
			}
			seen[v] = true
			if name == "record_code" && (len(v) != 5 || v != toUpper(v)) {
				t.Errorf("record code %q is not five upper-case letters", v)
			}
		}
	}
	if _, ok := Domain("nope"); ok {
		t.Fatal("unknown domain found")
	}
}

func toUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

func TestGroupFamily(t *testing.T) {
	s := NewSchema()
	for _, name := range []string{"main1", "main12", "main01", "mainx", "level1", "main3"} {
		s.Add(&Table{Name: name, Family: name})
	}
	if got := s.GroupFamily("main"); got != 3 {
		t.Fatalf("grouped %d tables, want 3 (main1, main12, main3)", got)
	}
	var names []string
	for _, tb := range s.Family("main") {
		names = append(names, tb.Name)
	}
	if want := "main1 main3 main12"; strings.Join(names, " ") != want {
		t.Fatalf("family main = %v, want %s", names, want)
	}
	if s.Table("main01").Family != "main01" || s.Table("level1").Family != "level1" {
		t.Fatal("tables outside the pattern must keep their family")
	}
}
