package promexport

import (
	"context"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
)

// fixed is a run that always shows the same snapshot.
type fixed replay.LiveSnapshot

func (f fixed) Snapshot() replay.LiveSnapshot { return replay.LiveSnapshot(f) }

func snapshot(id string, phase replay.LivePhase) fixed {
	lat := make([]uint64, len(replay.LatencyBounds)+1)
	lat[0], lat[5], lat[len(lat)-1] = 2, 3, 1
	return fixed{
		RunID: id, Phase: phase, Threads: 3, Elapsed: 1500 * time.Millisecond, Duration: 3 * time.Second,
		Progress: 0.5, Events: 7, Scenarios: []string{"a", "b"}, LatencyBounds: replay.LatencyBounds,
		Endpoints: []replay.LiveEndpoint{{
			Name: "127.0.0.1:3306", Threads: 3, InFlight: 2, Events: 7, Executions: 9, Errors: 3,
			WriteStall: 250 * time.Millisecond, ScenarioInFlight: []int{2, 0},
			Scenarios: []replay.LiveScenario{
				{Name: "a", Node: "node1", Executions: 9, Errors: 3, Retries: 1, ErrorCodes: map[int32]int64{1213: 1, 1062: 2},
					Latency: lat, LatencySum: 2 * time.Second},
				{Name: "b", Node: "node1", Latency: make([]uint64, len(replay.LatencyBounds)+1)},
			},
		}},
	}
}

// scrape serves c and reads it in the text format.
func scrape(t *testing.T, s *Server) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

func listen(t *testing.T) *Server {
	t.Helper()
	s, err := Listen("--metrics-addr", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background(), 0, io.Discard) })
	return s
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// TestEveryMetricIsServed: a scrape has every family of Metrics, of its
// type and with its labels, and the values of the run's snapshot.
func TestEveryMetricIsServed(t *testing.T) {
	s := listen(t)
	s.runs.watch(snapshot("r1", replay.LiveMeasured))
	fams := scrape(t, s)
	for _, m := range Metrics {
		f := fams[m.Name]
		if f == nil {
			t.Errorf("%s not served", m.Name)
			continue
		}
		if got := strings.ToLower(f.GetType().String()); got != m.Type {
			t.Errorf("%s: type %s, want %s", m.Name, got, m.Type)
		}
		for _, x := range f.GetMetric() {
			var names []string
			for n := range labels(x) {
				names = append(names, n)
			}
			slices.Sort(names)
			if want := slices.Sorted(slices.Values(m.Labels)); !slices.Equal(names, want) {
				t.Errorf("%s: labels %v, want %v", m.Name, names, want)
			}
		}
	}
	value := func(name string, match map[string]string) float64 {
		t.Helper()
		for _, x := range fams[name].GetMetric() {
			l := labels(x)
			ok := true
			for k, v := range match {
				ok = ok && l[k] == v
			}
			if ok {
				switch {
				case x.Counter != nil:
					return x.Counter.GetValue()
				case x.Gauge != nil:
					return x.Gauge.GetValue()
				}
			}
		}
		t.Errorf("%s%v not served", name, match)
		return -1
	}
	a := map[string]string{"run_id": "r1", "scenario": "a", "endpoint": "127.0.0.1:3306"}
	for name, want := range map[string]float64{
		"joinbench_scenario_executions_total": 9, "joinbench_scenario_retries_total": 1, "joinbench_scenario_in_flight": 2,
	} {
		if got := value(name, a); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	if got := value("joinbench_scenario_errors_total", map[string]string{"scenario": "a", "code": "1062"}); got != 2 {
		t.Errorf("errors 1062: %v, want 2", got)
	}
	if got := value("joinbench_run_phase", map[string]string{"phase": "measured"}); got != 1 {
		t.Errorf("phase measured: %v", got)
	}
	if got := value("joinbench_run_phase", map[string]string{"phase": "warmup"}); got != 0 {
		t.Errorf("phase warmup: %v", got)
	}
	if got := value("joinbench_endpoint_write_stall_seconds", nil); got != 0.25 {
		t.Errorf("write stall: %v", got)
	}
	for _, x := range fams[scenarioLatency.Name].GetMetric() {
		if labels(x)["scenario"] != "a" {
			continue
		}
		h := x.GetHistogram()
		if h.GetSampleCount() != 6 || h.GetSampleSum() != 2 || len(h.GetBucket()) != len(replay.LatencyBounds)+1 {
			t.Fatalf("histogram: %v", h)
		}
		// Cumulative: 2 at the first bound, 5 from the sixth on, 6 at +Inf.
		for i, b := range h.GetBucket() {
			want, le := uint64(2), math.Inf(1)
			if i >= 5 {
				want = 5
			}
			if i < len(replay.LatencyBounds) {
				le = replay.LatencyBounds[i].Seconds()
			} else {
				want = 6
			}
			if b.GetCumulativeCount() != want || b.GetUpperBound() != le {
				t.Errorf("bucket %d: le %v count %d, want le %v count %d", i, b.GetUpperBound(), b.GetCumulativeCount(), le, want)
			}
		}
	}
	if fams["go_goroutines"] == nil || fams["process_cpu_seconds_total"] == nil {
		t.Errorf("the Go runtime's and the process's metrics are not served")
	}
}

// TestOpenMetrics: a scraper that asks for OpenMetrics gets it, counters
// under their _total names.
func TestOpenMetrics(t *testing.T) {
	s := listen(t)
	s.runs.watch(snapshot("r1", replay.LiveMeasured))
	req, _ := http.NewRequest("GET", s.URL(), nil)
	req.Header.Set("Accept", "application/openmetrics-text;version=1.0.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	text := string(b)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/openmetrics-text") || !strings.HasSuffix(text, "# EOF\n") {
		t.Fatalf("not OpenMetrics: %s\n%.300s", resp.Header.Get("Content-Type"), text)
	}
	for _, want := range []string{"# TYPE joinbench_scenario_executions counter", "\njoinbench_scenario_executions_total{",
		"# TYPE joinbench_scenario_latency_seconds histogram", "\njoinbench_scenario_latency_seconds_bucket{"} {
		if !strings.Contains(text, want) {
			t.Errorf("OpenMetrics exposition lacks %q", want)
		}
	}
}

// TestEndedRunsMakeWayForTheNext: a run that ended is served until the
// next one starts (ab in rounds), not after.
func TestEndedRunsMakeWayForTheNext(t *testing.T) {
	s := listen(t)
	s.runs.watch(snapshot("r1", replay.LiveEnded))
	s.runs.watch(snapshot("r2", replay.LiveMeasured))
	s.runs.watch(snapshot("r3", replay.LiveMeasured))
	runs := map[string]bool{}
	for _, x := range scrape(t, s)["joinbench_run_threads"].GetMetric() {
		runs[labels(x)["run_id"]] = true
	}
	if len(runs) != 2 || !runs["r2"] || !runs["r3"] {
		t.Errorf("runs served: %v, want r2 and r3", runs)
	}
}

// TestListenRefusesBadAddresses: a malformed address or a taken one is a
// usage error naming the flag.
func TestListenRefusesBadAddresses(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, addr := range []string{"9464", "127.0.0.1", "127.0.0.1:http", "127.0.0.1:70000", "127.0.0.1:-1", taken.Addr().String()} {
		s, err := Listen("--metrics-addr", addr)
		if err == nil {
			_ = s.Close(context.Background(), 0, io.Discard)
			t.Errorf("%q was accepted", addr)
			continue
		}
		if !usage.Is(err) || !strings.HasPrefix(err.Error(), "--metrics-addr ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v (usage error: %v)", addr, err, usage.Is(err))
		}
	}
}

// TestLingerEndsAtTheLastScrape: Close waits for a scrape that starts
// after it, and no longer; without one, for the linger; interrupted, not
// at all.
func TestLingerEndsAtTheLastScrape(t *testing.T) {
	s, err := Listen("--metrics-addr", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.runs.watch(snapshot("r1", replay.LiveEnded))
	closed := make(chan error)
	go func() { closed <- s.Close(context.Background(), time.Hour, io.Discard) }()
	for !s.closing.Load() {
		time.Sleep(time.Millisecond)
	}
	select {
	case <-closed:
		t.Fatal("Close returned before the last scrape")
	default:
	}
	if fams := scrape(t, s); fams["joinbench_run_threads"] == nil {
		t.Error("the last scrape did not read the run")
	}
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Close did not return after the last scrape")
	}

	s, _ = Listen("--metrics-addr", "127.0.0.1:0")
	if err := s.Close(context.Background(), time.Millisecond, io.Discard); err != nil {
		t.Fatal(err)
	}
	s, _ = Listen("--metrics-addr", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Close(ctx, time.Hour, io.Discard); err != nil {
		t.Fatal(err)
	}
}

// TestMetricsDocumented: docs/metrics.md lists every metric with its type
// and labels, and names no other.
func TestMetricsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "metrics.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	row := regexp.MustCompile("(?m)^\\| `(joinbench_[a-z0-9_]+)` \\| ([a-z]+) \\| ([a-z_, ]+) \\|")
	rows := map[string][]string{}
	for _, m := range row.FindAllStringSubmatch(doc, -1) {
		rows[m[1]] = []string{m[2], m[3]}
	}
	for _, m := range Metrics {
		r, ok := rows[m.Name]
		if !ok {
			t.Errorf("docs/metrics.md: %s has no row in the table", m.Name)
			continue
		}
		if r[0] != m.Type || r[1] != strings.Join(m.Labels, ", ") {
			t.Errorf("docs/metrics.md: %s: %s with %s, want %s with %s", m.Name, r[0], r[1], m.Type, strings.Join(m.Labels, ", "))
		}
		delete(rows, m.Name)
	}
	for name := range rows {
		t.Errorf("docs/metrics.md lists %s, which is not exported", name)
	}
	for _, name := range regexp.MustCompile(`joinbench_[a-z0-9_]+`).FindAllString(doc, -1) {
		if Family(name) == nil {
			t.Errorf("docs/metrics.md names %s, which is not exported", name)
		}
	}
}
