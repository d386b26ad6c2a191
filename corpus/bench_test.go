package corpus

import (
	"testing"
)

func FuzzParseFile(f *testing.F) {
	c, err := LoadBuiltin()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range c.Scenarios() {
		f.Add([]byte(s.Source))
	}
	f.Add([]byte(allKinds))
	f.Add([]byte("-- param m: table(main)\nSELECT /*+ X({{m}}) */ '{{' FROM `a` # c\n;;"))
	f.Add([]byte("-- param n: int(1,9) pareto(0.1)\n-- param m: table(main)\nSELECT {{m}}, {{n}} /*! x */ -- {{"))
	schema := builtinSchema(f, 2)
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := ParseFile("fuzz/f.sql", src)
		if err != nil {
			return
		}
		for _, u := range s.Uses {
			if u.Start < s.BodyOffset || u.End > len(s.Source) || u.Start >= u.End {
				t.Fatalf("use out of the body: %+v", u)
			}
		}
		tmpl, err := Compile(s, schema, CompileOptions{TableSize: 10})
		if err != nil {
			return
		}
		r := tmpl.NewRenderer(1, 0)
		for range 3 {
			r.Next()
			r.Values(nil)
		}
	})
}

func BenchmarkLoadBuiltin(b *testing.B) {
	schema := builtinSchema(b, 4)
	b.ReportAllocs()
	for b.Loop() {
		c, err := LoadBuiltin()
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range c.Scenarios() {
			if _, err := Compile(s, schema, CompileOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func benchRender(b *testing.B, name string) {
	c, err := LoadBuiltin()
	if err != nil {
		b.Fatal(err)
	}
	tmpl, err := Compile(c.Get(name), builtinSchema(b, 8), CompileOptions{TableSize: 1000000})
	if err != nil {
		b.Fatal(err)
	}
	r := tmpl.NewRenderer(1, 0)
	b.ReportAllocs()
	for b.Loop() {
		r.Next()
	}
}

func BenchmarkRender(b *testing.B) {
	for _, name := range []string{"simple_inner_pk", "update_multi_inner_join_pk", "index_updates", "delete_inserts"} {
		b.Run(name, func(b *testing.B) { benchRender(b, name) })
	}
}

func BenchmarkRenderValues(b *testing.B) {
	c, _ := LoadBuiltin()
	tmpl, err := Compile(c.Get("delete_inserts"), builtinSchema(b, 8), CompileOptions{})
	if err != nil {
		b.Fatal(err)
	}
	r := tmpl.NewRenderer(1, 0)
	var dst []string
	b.ReportAllocs()
	for b.Loop() {
		r.Next()
		dst = r.Values(dst[:0])
	}
}
