package corpus

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

func compileSrc(t testing.TB, src string, opts CompileOptions) *Template {
	t.Helper()
	s, err := ParseFile("x.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := Compile(s, builtinSchema(t, 4), opts)
	if err != nil {
		t.Fatal(err)
	}
	return tmpl
}

const allKinds = hdr + `-- param e: enum(level1.record_status)
-- param p: set(main.set_field)
-- param c: list(color) gaussian
-- param i: int(-5,5)
-- param d: id(main) zipf
-- param s: string(3,12)
-- param u: uuid
-- param y: year
SELECT * FROM {{m}} WHERE e = {{e}} AND p = {{p}} AND c = {{c}} AND i = {{i}}
AND d = {{d}} AND s = {{s}} AND u = {{u}} AND y = {{y}}`

func draws(tmpl *Template, seed uint64, thread, n int) [][]string {
	r := tmpl.NewRenderer(seed, thread)
	var out [][]string
	for range n {
		st := r.Next()
		row := r.Values(nil)
		row = append(row, st[0].SQL, fmt.Sprint(st[0].Args...))
		out = append(out, row)
	}
	return out
}

func TestRenderDeterministic(t *testing.T) {
	tmpl := compileSrc(t, allKinds, CompileOptions{TableSize: 500})
	a := draws(tmpl, 99, 3, 50)
	if b := draws(tmpl, 99, 3, 50); !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed and thread must render the same values")
	}
	if b := draws(tmpl, 99, 4, 50); reflect.DeepEqual(a, b) {
		t.Fatal("another thread must get another stream")
	}
	if b := draws(tmpl, 100, 3, 50); reflect.DeepEqual(a, b) {
		t.Fatal("another seed must get another stream")
	}
	// A recompiled template (another process) renders the same values.
	if b := draws(compileSrc(t, allKinds, CompileOptions{TableSize: 500}), 99, 3, 50); !reflect.DeepEqual(a, b) {
		t.Fatal("rendering must not depend on the template instance")
	}
}

func TestRenderValues(t *testing.T) {
	tmpl := compileSrc(t, allKinds, CompileOptions{TableSize: 500})
	if got := tmpl.ParamNames(); !slices.Equal(got, []string{"m", "e", "p", "c", "i", "d", "s", "u", "y"}) {
		t.Fatalf("ParamNames = %v", got)
	}
	uuidRe := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	r := tmpl.NewRenderer(1, 0)
	for range 500 {
		st := r.Next()
		v := r.Values(nil)
		if len(v) != 9 || len(st[0].Args) != 8 {
			t.Fatalf("values %v args %v", v, st[0].Args)
		}
		if !slices.Contains([]string{"main1", "main2", "main3", "main4"}, v[0]) {
			t.Errorf("table %q", v[0])
		}
		if !slices.Contains([]string{"active", "inactive", "pending"}, v[1]) || !slices.Contains([]string{"read", "write", "execute", "delete"}, v[2]) {
			t.Errorf("enum/set %q %q", v[1], v[2])
		}
		i, _ := strconv.Atoi(v[4])
		d, _ := strconv.Atoi(v[5])
		y, _ := strconv.Atoi(v[8])
		if i < -5 || i > 5 || d < 1 || d > 500 || y < 1999 || y > 2035 {
			t.Errorf("numbers out of range: %v", v)
		}
		if len(v[6]) < 3 || len(v[6]) > 12 || !uuidRe.MatchString(v[7]) {
			t.Errorf("string %q uuid %q", v[6], v[7])
		}
		// Args hold the same values, typed.
		if st[0].Args[0] != v[1] || st[0].Args[3] != int64(i) || st[0].Args[5] != v[6] {
			t.Errorf("args %v vs values %v", st[0].Args, v)
		}
	}
	// Values appends.
	if got := r.Values([]string{"x"}); len(got) != 10 || got[0] != "x" {
		t.Errorf("Values must append to dst: %v", got)
	}
}

// histogram draws n values of int(1,k) with a distribution.
func histogram(t *testing.T, dist string, k, n int) []int {
	tmpl := compileSrc(t, hdr+"-- param v: int(1,"+strconv.Itoa(k)+")\nSELECT * FROM {{m}} WHERE v = {{v}}",
		CompileOptions{Distribution: dist})
	r := tmpl.NewRenderer(5, 0)
	h := make([]int, k+1)
	for range n {
		v := r.Next()[0].Args[0].(int64)
		if v < 1 || v > int64(k) {
			t.Fatalf("%s: %d out of 1..%d", dist, v, k)
		}
		h[v]++
	}
	return h[1:]
}

func TestDistributionShapes(t *testing.T) {
	const k, n = 100, 100000
	share := func(h []int, lo, hi int) float64 {
		s := 0
		for _, c := range h[lo:hi] {
			s += c
		}
		return float64(s) / n
	}
	u := histogram(t, "", k, n)
	for i, c := range u {
		if math.Abs(float64(c)-n/k) > 0.2*n/k {
			t.Errorf("uniform: bucket %d has %d, want about %d", i+1, c, n/k)
		}
	}
	g := histogram(t, DistGaussian, k, n)
	if mid, tails := share(g, 40, 60), share(g, 0, 10)+share(g, 90, 100); mid < 0.35 || tails > 0.03 {
		t.Errorf("gaussian: middle fifth %.3f (want ~0.38), outer fifth %.3f (want ~0.01)", mid, tails)
	}
	p := histogram(t, DistPareto, k, n)
	if hot := share(p, 0, 20); hot < 0.75 || hot > 0.85 {
		t.Errorf("pareto: first 20%% of values got %.3f of draws, want ~0.80", hot)
	}
	z := histogram(t, DistZipf, k, n)
	if z[0] < z[1] || z[1] < z[9] || z[9] < z[99] || share(z, 0, 10) < 0.5 {
		t.Errorf("zipf: not decreasing from the first value: %v", z[:12])
	}
	// An explicit distribution wins over the run's default.
	tmpl := compileSrc(t, hdr+"-- param v: int(1,100) uniform\nSELECT * FROM {{m}} WHERE v = {{v}}", CompileOptions{Distribution: DistZipf})
	r := tmpl.NewRenderer(5, 0)
	low := 0
	for range 10000 {
		if r.Next()[0].Args[0].(int64) <= 10 {
			low++
		}
	}
	if low > 1300 {
		t.Errorf("explicit uniform overridden by the default: %d of 10000 draws in the first 10%%", low)
	}
}

func TestRenderAllocations(t *testing.T) {
	c, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := Compile(c.Get("simple_inner_pk"), builtinSchema(t, 8), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := tmpl.NewRenderer(1, 0)
	if n := testing.AllocsPerRun(1000, func() { r.Next() }); n != 0 {
		t.Errorf("rendering enum and list values allocates %.1f times, want 0", n)
	}
	tmpl, err = Compile(c.Get("delete_inserts"), builtinSchema(t, 8), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r = tmpl.NewRenderer(1, 0)
	// One per boxed integer above 255 and two per generated string at most.
	if n := testing.AllocsPerRun(1000, func() { r.Next() }); n > 30 {
		t.Errorf("delete_inserts allocates %.1f times per render", n)
	}
}
