package promexport

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/joinbench/joinbench/replay"
)

// BenchmarkScrape is one scrape of a large run: 40 scenarios on 3
// endpoints, each with errors of two codes (the Go runtime's and the
// process's metrics included).
func BenchmarkScrape(b *testing.B) {
	s := snapshot("r1", replay.LiveMeasured)
	ep := s.Endpoints[0]
	ep.Scenarios = nil
	s.Scenarios = nil
	for i := range 40 {
		sc := snapshot("", "").Endpoints[0].Scenarios[0]
		sc.Name = fmt.Sprintf("scenario_%02d", i)
		ep.Scenarios = append(ep.Scenarios, sc)
		s.Scenarios = append(s.Scenarios, sc.Name)
	}
	s.Endpoints = nil
	for i := range 3 {
		e := ep
		e.Name = fmt.Sprintf("10.0.0.%d:3306", i+1)
		e.ScenarioInFlight = make([]int, len(ep.Scenarios))
		s.Endpoints = append(s.Endpoints, e)
	}
	srv, err := Listen("--metrics-addr", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close(context.Background(), 0, io.Discard)
	srv.runs.watch(s)
	h := srv.srv.Handler
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", Path, nil))
		if i == 0 {
			b.ReportMetric(float64(w.Body.Len()), "bytes/scrape")
		}
	}
}
