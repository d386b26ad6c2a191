package ddl

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func familyNames(s *Schema, fam string) string {
	var names []string
	for _, t := range s.Family(fam) {
		names = append(names, t.Name)
	}
	return strings.Join(names, " ")
}

// Family is answered from an index built once, which Add and GroupFamily
// keep current, and which concurrent readers (lint runs files in
// parallel) share.
func TestFamilyIndexFollowsChanges(t *testing.T) {
	s := NewSchema()
	for _, name := range []string{"main10", "main2", "other"} {
		s.Add(&Table{Name: name, Family: name})
	}
	if got := familyNames(s, "main"); got != "" {
		t.Fatalf("family main before grouping = %q", got)
	}
	s.GroupFamily("main")
	if got := familyNames(s, "MAIN"); got != "main2 main10" {
		t.Fatalf("family main = %q, want main2 main10", got)
	}
	s.Add(&Table{Name: "main1", Family: "main"})
	if got := familyNames(s, "main"); got != "main1 main2 main10" {
		t.Fatalf("family main after Add = %q", got)
	}
	s.Add(&Table{Name: "main2", Family: "main2"}) // replaced, now its own family
	if got := familyNames(s, "main"); got != "main1 main10" {
		t.Fatalf("family main after replacing main2 = %q", got)
	}
	if got := familyNames(s, "other"); got != "other" {
		t.Errorf("family other = %q", got)
	}

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := familyNames(s, "main"); got != "main1 main10" {
				t.Errorf("reader %d: family main = %q", i, got)
			}
		}()
	}
	wg.Wait()
}

// BenchmarkFamilyManyTables: asking a schema of 100,000 main tables for
// its main family costs a map lookup, not a sort of the schema.
func BenchmarkFamilyManyTables(b *testing.B) {
	s := NewSchema()
	for i := 1; i <= 100000; i++ {
		s.Add(&Table{Name: fmt.Sprintf("main%d", i), Family: "main"})
	}
	s.Family("main")
	b.ResetTimer()
	for b.Loop() {
		if ts := s.Family("main"); len(ts) != 100000 || ts[0].Name != "main1" {
			b.Fatal(len(ts))
		}
	}
}
