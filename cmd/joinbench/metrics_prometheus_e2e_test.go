//go:build e2e

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
)

// TestPrometheusScrapesARun starts a real Prometheus scraping
// `run --metrics-addr` every second, makes a short run, and checks over
// Prometheus's HTTP API that the executions of each scenario it stored
// are the run's summary's (the last scrape, during --metrics-linger, read
// the final values), and that every query of the Grafana dashboard
// evaluates on what it stored.
func TestPrometheusScrapesARun(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		testdb.Skipf(t, "prometheus is not installed (scripts/install-deps.sh prometheus)")
	}
	dsn := testdb.Fresh(t, "cmd_prometheus")
	if code, _ := runCaptured(t, "prepare", "--dsn", dsn, "--table-size", "200", "-q"); code != 0 {
		t.Fatalf("prepare: exit %d", code)
	}
	metricsAddr := freeAddr(t)
	prom := startPrometheus(t, bin, metricsAddr)
	// Prometheus takes up to a few seconds to start scraping a target it
	// is configured with: the run starts once it has tried (up is 0 until
	// the run serves), so that every second of the run is scraped.
	for deadline := time.Now().Add(time.Minute); len(prom.query(t, `up{job="joinbench"}`)) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("Prometheus did not try to scrape in a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}

	start := time.Now()
	code, stdout := runCaptured(t, "run", "--dsn", dsn, "--table-size", "200", "-s", "simple_inner_pk=2", "-s", "index_updates",
		"--threads", "2", "--time", "4s", "--out", t.TempDir(), "--run-id", "prom", "--json", "-q",
		"--metrics-addr", metricsAddr, "--metrics-linger", "30s")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stdout)
	}
	var sum struct {
		Executions int64 `json:"executions"`
		Scenarios  []struct {
			Scenario   string `json:"scenario"`
			Executions int64  `json:"executions"`
			Errors     int64  `json:"errors"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || len(sum.Scenarios) != 2 || sum.Executions == 0 {
		t.Fatalf("summary: %v\n%s", err, stdout)
	}

	// The last scrape is in once Prometheus has the run as ended; the
	// client is gone, so its series are read over a range (an instant
	// selector sees them as stale).
	ended := `max(last_over_time(joinbench_run_phase{run_id="prom", phase="ended"}[5m]))`
	for deadline := time.Now().Add(30 * time.Second); ; {
		if v := prom.query(t, ended); v["{}"] == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus never stored the run as ended: %v", prom.query(t, ended))
		}
		time.Sleep(200 * time.Millisecond)
	}
	execs := prom.query(t, `sum by (scenario) (last_over_time(joinbench_scenario_executions_total{run_id="prom"}[5m]))`)
	lat := prom.query(t, `sum by (scenario) (last_over_time(joinbench_scenario_latency_seconds_count{run_id="prom"}[5m]))`)
	total := prom.query(t, `sum(last_over_time(joinbench_endpoint_executions_total{run_id="prom"}[5m]))`)
	for _, s := range sum.Scenarios {
		key := fmt.Sprintf("{scenario=%q}", s.Scenario)
		if got := execs[key]; got != float64(s.Executions) {
			t.Errorf("%s: Prometheus has %v executions, the summary %d", s.Scenario, got, s.Executions)
		}
		if got := lat[key]; got != float64(s.Executions-s.Errors) {
			t.Errorf("%s: Prometheus has %v latencies, the summary %d successful executions", s.Scenario, got, s.Executions-s.Errors)
		}
	}
	if total["{}"] != float64(sum.Executions) {
		t.Errorf("Prometheus has %v executions over the endpoints, the summary %d", total["{}"], sum.Executions)
	}

	// Every dashboard query, as Grafana would send it over the run.
	for _, q := range dashboardQueries(t) {
		if strings.HasPrefix(q, "label_values(") {
			m := labelValues.FindStringSubmatch(q)
			if m == nil {
				t.Errorf("dashboard variable %q: not label_values(SELECTOR, LABEL)", q)
				continue
			}
			if vals := prom.labelValues(t, m[2], dashboardVars.Replace(m[1]), start); len(vals) == 0 {
				t.Errorf("dashboard variable %q: no values", q)
			}
			continue
		}
		series := prom.queryRange(t, dashboardVars.Replace(q), start.Add(-5*time.Second), time.Now())
		// Errors by code have no series in a run without errors.
		if series == 0 && !strings.Contains(q, "joinbench_scenario_errors_total") {
			t.Errorf("dashboard query %q: no data", q)
		}
	}
}

// dashboardVars are the values the test gives the dashboard's variables.
var dashboardVars = strings.NewReplacer("$run_id", "prom", "$endpoint", ".*", "$node", ".*", "$scenario", ".*", "$__rate_interval", "4s")

var labelValues = regexp.MustCompile(`^label_values\((.+),\s*([a-z_]+)\)$`)

// dashboardQueries are the queries of deploy/grafana/joinbench.json: its
// panels' and its variables'.
func dashboardQueries(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "grafana", "joinbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Templating struct {
			List []struct {
				Type  string          `json:"type"`
				Query json.RawMessage `json:"query"` // an object for type query
			} `json:"list"`
		} `json:"templating"`
		Panels []struct {
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		var q struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(v.Query, &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, q.Query)
	}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			out = append(out, tg.Expr)
		}
	}
	return out
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// prometheus is a Prometheus server a test started.
type prometheus struct{ url string }

// startPrometheus starts bin on the loopback with a configuration that
// scrapes target every second, and waits until it is ready; it is stopped
// when the test ends.
func startPrometheus(t *testing.T, bin, target string) *prometheus {
	t.Helper()
	dir := t.TempDir()
	conf := fmt.Sprintf("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n"+
		"  - job_name: joinbench\n    static_configs:\n      - targets: [%q]\n", target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	var logs bytes.Buffer
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus:\n%s", logs.String())
		}
	})
	p := &prometheus{url: "http://" + addr}
	for deadline := time.Now().Add(time.Minute); ; {
		if resp, err := http.Get(p.url + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus not ready after a minute:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// api calls an endpoint of Prometheus's HTTP API and decodes its data.
func (p *prometheus) api(t *testing.T, path string, form url.Values, data any) {
	t.Helper()
	resp, err := http.Get(p.url + path + "?" + form.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("%s %v: %v", path, form, err)
	}
	if r.Status != "success" {
		t.Fatalf("%s %v: %s", path, form, r.Error)
	}
	if err := json.Unmarshal(r.Data, data); err != nil {
		t.Fatalf("%s %v: %v", path, form, err)
	}
}

// query evaluates an instant query now and returns its values by label
// set, written as {name="value",...} ({} for none).
func (p *prometheus) query(t *testing.T, q string) map[string]float64 {
	t.Helper()
	var data struct {
		Result []struct {
			Metric map[string]string `json:"metric"`
			Value  [2]any            `json:"value"`
		} `json:"result"`
	}
	p.api(t, "/api/v1/query", url.Values{"query": {q}}, &data)
	out := map[string]float64{}
	for _, r := range data.Result {
		var parts []string
		for k, v := range r.Metric {
			parts = append(parts, fmt.Sprintf("%s=%q", k, v))
		}
		s, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: value %v", q, r.Value)
		}
		out["{"+strings.Join(parts, ",")+"}"] = v
	}
	return out
}

// queryRange evaluates q over [from, to] every second and returns how
// many series it gave.
func (p *prometheus) queryRange(t *testing.T, q string, from, to time.Time) int {
	t.Helper()
	var data struct {
		Result []json.RawMessage `json:"result"`
	}
	p.api(t, "/api/v1/query_range", url.Values{"query": {q}, "start": {unix(from)}, "end": {unix(to)}, "step": {"1"}}, &data)
	return len(data.Result)
}

// labelValues returns the values of label in the series match selects
// since from.
func (p *prometheus) labelValues(t *testing.T, label, match string, from time.Time) []string {
	t.Helper()
	var vals []string
	p.api(t, "/api/v1/label/"+label+"/values", url.Values{"match[]": {match}, "start": {unix(from)}}, &vals)
	return vals
}

func unix(t time.Time) string { return strconv.FormatFloat(float64(t.UnixNano())/1e9, 'f', 3, 64) }
