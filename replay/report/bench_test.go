package report

import (
	"testing"
)

// BenchmarkBuild reads and summarises 200k executions of 10 scenarios from
// two client-host files.
func BenchmarkBuild(b *testing.B) {
	var scs []scen
	for i := 0; i < 10; i++ {
		scs = append(scs, scen{name: "scenario_" + string(rune('a'+i)), n: 20000, medianMs: float64(i + 1), plan: "p"})
	}
	fixtureRowGroup = 1 << 16 // as real runs write
	defer func() { fixtureRowGroup = 700 }()
	dir := runFixture{id: "bench", execs: gen(1, 60, scs...)}.write(b, b.TempDir())
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build([]string{dir}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(200000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
