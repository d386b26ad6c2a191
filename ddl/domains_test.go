package ddl

import "testing"

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
