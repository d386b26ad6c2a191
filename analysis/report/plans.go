package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/explain"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/results"
)

// formatPreference is the order in which a plan's formats are shown.
var formatPreference = []string{"tree", "json", "traditional", "analyze"}

// planCatalog holds the plans.parquet rows of one side by scenario and
// plan hash.
type planCatalog struct {
	flavor flavor.Flavor
	plans  map[string]map[string]map[string]string // scenario → hash → format → text
	limits map[string]int64                        // scenario → its statement's top-level LIMIT
	// queries are, per scenario, the first statement explained, with its
	// values: the SQL a report shows when run.json has not the text.
	queries map[string]string
}

func newPlanCatalog(info *results.Run, rows []results.Plan) *planCatalog {
	var fl flavor.Flavor
	if info != nil {
		fl = flavor.Parse(info.ServerVersion, "")
		if info.Flavor != "" {
			fl.Name = info.Flavor
		}
	}
	c := &planCatalog{flavor: fl, plans: map[string]map[string]map[string]string{}, limits: map[string]int64{}, queries: map[string]string{}}
	for _, p := range rows {
		if _, ok := c.queries[p.Scenario]; !ok && p.Query != "" {
			c.queries[p.Scenario] = p.Query
		}
		if n := topLimit(p.Query); n > 0 {
			c.limits[p.Scenario] = n
		}
		byHash := c.plans[p.Scenario]
		if byHash == nil {
			byHash = map[string]map[string]string{}
			c.plans[p.Scenario] = byHash
		}
		f := byHash[p.PlanHash]
		if f == nil {
			f = map[string]string{}
			byHash[p.PlanHash] = f
		}
		if _, ok := f[p.Format]; !ok {
			f[p.Format] = p.Explain
		}
	}
	return c
}

// text returns the readable form of one plan, or "".
func (c *planCatalog) text(scenario, hash string) string {
	f := c.plans[scenario][hash]
	if f == nil {
		return ""
	}
	// The JSON plan drawn by explain.Tree reads the same on every server
	// flavour, so two servers' plans diff line by line; then the server's
	// own tree; then the JSON itself.
	if j := f["json"]; j != "" {
		if t, err := explain.Tree(c.flavor, j); err == nil && strings.TrimSpace(t) != "" {
			return strings.TrimRight(t, "\n")
		}
	}
	if t := f["tree"]; t != "" {
		return strings.TrimRight(t, "\n")
	}
	if j := f["json"]; j != "" {
		var b bytes.Buffer
		if json.Indent(&b, []byte(j), "", "  ") == nil {
			return b.String()
		}
		return j
	}
	for _, k := range formatPreference[2:] {
		if t := f[k]; t != "" {
			return strings.TrimRight(t, "\n")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(f)) {
		return strings.TrimRight(f[k], "\n")
	}
	return ""
}

// plansOf lists the distinct plans of a scenario, most used first: the
// plan hashes seen in executions, plus any plan in plans.parquet that no
// successful execution referenced.
func (c *planCatalog) plansOf(a *scenarioAcc) []PlanInfo {
	counts := maps.Clone(a.plans)
	for h := range c.plans[a.name] {
		if _, ok := counts[h]; !ok {
			counts[h] = 0
		}
	}
	var out []PlanInfo
	for h, n := range counts {
		p := PlanInfo{Hash: h, Executions: n, Tree: c.text(a.name, h)}
		for f := range c.plans[a.name][h] {
			p.Formats = append(p.Formats, f)
		}
		slices.Sort(p.Formats)
		out = append(out, p)
	}
	slices.SortFunc(out, func(x, y PlanInfo) int {
		return cmp.Or(cmp.Compare(y.Executions, x.Executions), cmp.Compare(x.Hash, y.Hash))
	})
	return out
}

// limitAtEnd matches a LIMIT clause that ends a statement: LIMIT n,
// LIMIT offset, n or LIMIT n OFFSET m.
var limitAtEnd = regexp.MustCompile(`(?i)\bLIMIT\s+(\d+)(?:\s*,\s*(\d+)|\s+OFFSET\s+\d+)?\s*;?\s*$`)

// topLimit returns the row count of the LIMIT that ends q, or 0.
func topLimit(q string) int64 {
	m := limitAtEnd.FindStringSubmatch(q)
	if m == nil {
		return 0
	}
	n := m[1]
	if m[2] != "" {
		n = m[2]
	}
	v, _ := strconv.ParseInt(n, 10, 64)
	return v
}
