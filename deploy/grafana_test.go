package deploy

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/promexport"
)

// dashboard is what the test reads of a Grafana dashboard.
type dashboard struct {
	UID        string `json:"uid"`
	Title      string `json:"title"`
	Templating struct {
		List []struct {
			Name  string          `json:"name"`
			Type  string          `json:"type"`
			Query json.RawMessage `json:"query"`
		} `json:"list"`
	} `json:"templating"`
	Panels []struct {
		Title      string `json:"title"`
		Type       string `json:"type"`
		Datasource struct {
			UID string `json:"uid"`
		} `json:"datasource"`
		Targets []struct {
			Expr   string `json:"expr"`
			Legend string `json:"legendFormat"`
		} `json:"targets"`
	} `json:"panels"`
}

var (
	seriesName = regexp.MustCompile(`joinbench_[a-z0-9_]+`)
	selector   = regexp.MustCompile(`(joinbench_[a-z0-9_]+)\{([^}]*)\}`)
	matcher    = regexp.MustCompile(`([a-z_]+)\s*(?:=~|!~|!=|=)`)
	grouping   = regexp.MustCompile(`\b(?:by|without)\s*\(([^)]*)\)`)
	legendName = regexp.MustCompile(`\{\{\s*([a-z_]+)\s*\}\}`)
)

// TestGrafanaDashboard: every metric the dashboard's queries name is one
// joinbench exports (docs/metrics.md), with labels it has; every panel
// queries the data source chosen on the dashboard.
func TestGrafanaDashboard(t *testing.T) {
	b, err := os.ReadFile("grafana/joinbench.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("grafana/joinbench.json: %v", err)
	}
	if d.UID == "" || d.Title == "" || len(d.Panels) == 0 {
		t.Fatalf("grafana/joinbench.json: uid %q, title %q, %d panels", d.UID, d.Title, len(d.Panels))
	}
	labels := map[string]bool{"le": true}
	for _, m := range promexport.Metrics {
		for _, l := range m.Labels {
			labels[l] = true
		}
	}
	check := func(where, expr string) {
		names := seriesName.FindAllString(expr, -1)
		if len(names) == 0 {
			t.Errorf("%s: %q names no joinbench metric", where, expr)
		}
		for _, n := range names {
			if promexport.Family(n) == nil {
				t.Errorf("%s: %s is not a metric joinbench exports", where, n)
			}
		}
		for _, s := range selector.FindAllStringSubmatch(expr, -1) {
			m := promexport.Family(s[1])
			if m == nil {
				continue
			}
			for _, l := range matcher.FindAllStringSubmatch(s[2], -1) {
				if !slices.Contains(m.Labels, l[1]) && !(l[1] == "le" && strings.HasSuffix(s[1], "_bucket")) {
					t.Errorf("%s: %s has no label %s", where, s[1], l[1])
				}
			}
		}
		for _, g := range grouping.FindAllStringSubmatch(expr, -1) {
			for _, l := range strings.Split(g[1], ",") {
				if l = strings.TrimSpace(l); l != "" && !labels[l] {
					t.Errorf("%s: groups by %s, which no metric has", where, l)
				}
			}
		}
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		var q struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(v.Query, &q); err != nil {
			t.Errorf("variable %s: query %s: %v", v.Name, v.Query, err)
		}
		check("variable "+v.Name, q.Query)
	}
	for _, p := range d.Panels {
		if p.Datasource.UID != "${datasource}" {
			t.Errorf("panel %q: data source %q, want ${datasource}", p.Title, p.Datasource.UID)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			check("panel "+p.Title, tg.Expr)
			for _, l := range legendName.FindAllStringSubmatch(tg.Legend, -1) {
				if !labels[l[1]] {
					t.Errorf("panel %q: legend names %s, which no metric has", p.Title, l[1])
				}
			}
		}
	}
}
