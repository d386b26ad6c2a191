package corpus

import (
	"strings"
	"testing"
)

// TestSampleDeclarations: what the loader refuses of a sample
// declaration, and what lint checks of it against a schema.
func TestSampleDeclarations(t *testing.T) {
	for decl, want := range map[string]string{
		"sample(level1.id)":        "",
		"sample(level1.id, 50)":    "",
		"sample(level1)":           "sample(level1): expected table.column",
		"sample(level1.id, 0)":     `sample size "0": expected a whole number in 1..100000`,
		"sample(level1.id, x)":     `sample size "x"`,
		"sample(level1.id, 1, 2)":  "sample takes table.column and an optional sample size, got 3 arguments",
		"sample(a.b.c)":            "expected table.column",
		"sample(level1.id,100000)": "",
	} {
		_, err := ParseFile("x.sql", []byte("-- param p: "+decl+"\nSELECT {{p}}"))
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", decl, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: err = %v, want %q", decl, err, want)
		}
	}
	schema := builtinSchema(t, 1)
	for decl, want := range map[string]string{
		"sample(level1.id)":   "",
		"sample(nope.id)":     "no table nope in the schema",
		"sample(level1.nope)": "table level1 has no column nope",
	} {
		s, err := ParseFile("x.sql", []byte("-- param p: "+decl+"\nSELECT {{p}}"))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.CheckParam(s.Params[0], schema); got != want {
			t.Errorf("%s: CheckParam = %q, want %q", decl, got, want)
		}
	}
}

// TestSampleDrawsOnlyTheValuesGiven: a compiled template asks for its
// columns once each, binds NULL before they are read, and once given
// them draws only those values, bound as given, the same for a seed.
func TestSampleDrawsOnlyTheValuesGiven(t *testing.T) {
	s, err := ParseFile("x.sql", []byte(`-- param a: sample(orders.customer_id)
-- param b: sample(orders.customer_id)
-- param c: sample(customers.country, 10)
SELECT * FROM orders o JOIN customers c ON c.id = o.customer_id
WHERE o.customer_id IN ({{a}}, {{b}}) AND c.country = {{c}}`))
	if err != nil {
		t.Fatal(err)
	}
	// The run's schema need not know the tables: the server does.
	tmpl, err := Compile(s, builtinSchema(t, 1), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reqs := tmpl.Samples()
	if len(reqs) != 2 || reqs[0] != (SampleRequest{"orders", "customer_id", DefaultSampleSize}) || reqs[1] != (SampleRequest{"customers", "country", 10}) {
		t.Fatalf("Samples() = %v", reqs)
	}
	if st := tmpl.NewRenderer(1, 0).Next()[0]; st.Args[0] != nil || st.Args[2] != nil {
		t.Errorf("before the sample is read, args = %v, want NULLs", st.Args)
	}
	if err := tmpl.SetSample(reqs[0], []string{"7", "9", "11"}, []any{int64(7), int64(9), int64(11)}); err != nil {
		t.Fatal(err)
	}
	if err := tmpl.SetSample(reqs[1], nil, nil); err == nil || !strings.Contains(err.Error(), "sample(customers.country, 10)") {
		t.Errorf("an empty sample: err = %v, want one naming the column", err)
	}
	if err := tmpl.SetSample(reqs[1], []string{"FR", "DE"}, []any{"FR", "DE"}); err != nil {
		t.Fatal(err)
	}
	draw := func(seed uint64) []any {
		r := tmpl.NewRenderer(seed, 0)
		var out []any
		for i := 0; i < 200; i++ {
			out = append(out, r.Next()[0].Args...)
		}
		return out
	}
	got := draw(3)
	seen := map[any]bool{}
	for i, v := range got {
		ok := false
		switch i % 3 {
		case 0, 1:
			ok = v == int64(7) || v == int64(9) || v == int64(11)
		case 2:
			ok = v == "FR" || v == "DE"
		}
		if !ok {
			t.Fatalf("arg %d = %#v, not one of the sample", i%3, v)
		}
		seen[v] = true
	}
	if len(seen) != 5 {
		t.Errorf("200 draws saw %d of the 5 values", len(seen))
	}
	again := draw(3)
	for i := range got {
		if got[i] != again[i] {
			t.Fatalf("seed 3 drew %v then %v at %d", got[i], again[i], i)
		}
	}
}
