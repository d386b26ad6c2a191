package segment

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Segment
		bad  bool
	}{
		{"", Segment{}, false},
		{"1/1", Segment{1, 1}, false},
		{"2/4", Segment{2, 4}, false},
		{" 3 / 3 ", Segment{3, 3}, false},
		{"0/4", Segment{}, true},
		{"5/4", Segment{}, true},
		{"1/0", Segment{}, true},
		{"2", Segment{}, true},
		{"a/b", Segment{}, true},
	} {
		got, err := Parse(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

func TestResolveFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	s, err := Resolve("", env(map[string]string{IndexEnv: "0", CountEnv: "4"}))
	if err != nil || s != (Segment{1, 4}) {
		t.Fatalf("index 0 of 4 = %v, %v; want 1/4", s, err)
	}
	s, err = Resolve("2/3", env(map[string]string{IndexEnv: "0", CountEnv: "4"}))
	if err != nil || s != (Segment{2, 3}) {
		t.Fatalf("the flag wins: %v, %v", s, err)
	}
	if s, err := Resolve("", env(map[string]string{IndexEnv: "3"})); err != nil || s.Split() {
		t.Fatalf("a Job index alone splits nothing: %v, %v", s, err)
	}
	if _, err := Resolve("", env(map[string]string{CountEnv: "4"})); err == nil {
		t.Fatal("a count without an index is an error")
	}
	if _, err := Resolve("", env(map[string]string{IndexEnv: "4", CountEnv: "4"})); err == nil {
		t.Fatal("index 4 of 4 (from 0) is out of range")
	}
}

func TestSharesAddUp(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 7} {
		for _, total := range []int64{0, 1, 2, 3, 10, 11, 1000, 1001} {
			var sum int64
			next := int64(1)
			for i := 1; i <= n; i++ {
				s := Segment{i, n}
				sh := s.Share(total)
				if sh < total/int64(n) || sh > total/int64(n)+1 {
					t.Fatalf("%v share of %d = %d: unbalanced", s, total, sh)
				}
				sum += sh
				from, to := s.Range(1, total)
				if from != next || to-from+1 != sh {
					t.Fatalf("%v range of 1..%d = %d..%d; want from %d, %d ids", s, total, from, to, next, sh)
				}
				next = to + 1
			}
			if sum != total || next != total+1 {
				t.Fatalf("%d segments of %d: shares add up to %d, ranges end at %d", n, total, sum, next-1)
			}
		}
	}
}

func TestSeedsDiffer(t *testing.T) {
	if (Segment{}).Seed(7) != 7 || (Segment{1, 1}).Seed(7) != 7 {
		t.Fatal("the whole keeps its seed")
	}
	seen := map[uint64]bool{}
	for i := 1; i <= 8; i++ {
		s := Segment{i, 8}.Seed(7)
		if seen[s] || s != (Segment{i, 8}).Seed(7) {
			t.Fatalf("segment %d: seed %d repeats or is not reproducible", i, s)
		}
		seen[s] = true
	}
}
