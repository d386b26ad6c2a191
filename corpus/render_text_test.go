package corpus

import (
	"slices"
	"strconv"
	"testing"
)

// Values kept from earlier draws must not change when later draws format
// their numbers (they share blocks of text).
func TestValuesStayValid(t *testing.T) {
	tmpl := compileSrc(t, allKinds, CompileOptions{})
	r := tmpl.NewRenderer(7, 0)
	var kept, copies [][]string
	for range 3 * textChunk {
		r.Next()
		v := r.Values(nil)
		kept = append(kept, v)
		c := make([]string, len(v))
		for i, s := range v {
			c[i] = string([]byte(s))
		}
		copies = append(copies, c)
	}
	for i := range kept {
		if !slices.Equal(kept[i], copies[i]) {
			t.Fatalf("draw %d: values %q changed, were %q", i, kept[i], copies[i])
		}
	}
	buf := make([]string, 0, 16)
	if allocs := testing.AllocsPerRun(1000, func() { _ = r.Values(buf[:0]) }); allocs != 0 {
		t.Errorf("Values: %v allocations per call, want 0", allocs)
	}
	for _, v := range []int64{0, -1, 1 << 62, -1 << 63} {
		if got := r.intText(v); got != strconv.FormatInt(v, 10) {
			t.Errorf("intText(%d) = %q", v, got)
		}
	}
}
