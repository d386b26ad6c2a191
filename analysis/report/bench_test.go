package report

import (
	"testing"

	"github.com/joinbench/joinbench/analysis/internal/fixture"
)

// BenchmarkBuild reads and summarises 200k executions of 10 scenarios from
// two client-host files.
func BenchmarkBuild(b *testing.B) {
	var scs []fixture.Scen
	for i := 0; i < 10; i++ {
		scs = append(scs, fixture.Scen{Name: "scenario_" + string(rune('a'+i)), N: 20000, MedianMs: float64(i + 1), Plan: "p"})
	}
	fixture.RowGroup = 1 << 16 // as real runs write
	defer func() { fixture.RowGroup = 700 }()
	dir := fixture.Run{ID: "bench", Execs: fixture.Gen(1, 60, scs...)}.Write(b, b.TempDir())
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build([]string{dir}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(200000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
