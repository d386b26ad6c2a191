package corpus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/internal/usage"
)

// Lookup returns the named scenario, or a user error that names near
// matches ("did you mean ...?").
func (c *Corpus) Lookup(name string) (*Scenario, error) {
	if s := c.Get(name); s != nil {
		return s, nil
	}
	return nil, usage.Errorf("no scenario %q%s (joinbench list shows them)", name, c.nearNames(name))
}

// nearNames suggests scenario names close to a mistyped one: those that
// contain it, or share its first six letters.
func (c *Corpus) nearNames(name string) string {
	var near []string
	low := strings.ToLower(name)
	for _, s := range c.Scenarios() {
		n := strings.ToLower(s.Name)
		if strings.Contains(n, low) || len(low) >= 6 && strings.HasPrefix(n, low[:6]) {
			near = append(near, s.Name)
		}
	}
	if len(near) == 0 {
		return ""
	}
	if len(near) > 5 {
		near = append(near[:5], "...")
	}
	return "; did you mean " + strings.Join(near, ", ") + "?"
}

// Selection is what a run executes: how many times each scenario runs per
// event, as the reference workload counts them.
type Selection struct {
	All   bool     // every scenario, once per event
	Tags  []string // every scenario carrying one of these tags, once per event
	Specs []string // NAME or NAME=COUNT (COUNT 0 turns a scenario off)
}

// Select resolves a selection into scenario name → executions per event,
// leaving out scenarios whose count is 0. Choosing nothing, a tag no
// scenario carries, an unknown name or a bad count is a user error.
func (c *Corpus) Select(sel Selection) (map[string]int, error) {
	counts := map[string]int{}
	if sel.All {
		for _, s := range c.Scenarios() {
			counts[s.Name] = 1
		}
	}
	if len(sel.Tags) > 0 {
		matched := 0
		for _, s := range c.Scenarios() {
			if slices.ContainsFunc(s.Tags, func(t string) bool { return slices.Contains(sel.Tags, t) }) {
				counts[s.Name] = 1
				matched++
			}
		}
		if matched == 0 {
			return nil, usage.Errorf("--tags %s: no scenario has these tags (joinbench list shows them)", strings.Join(sel.Tags, ","))
		}
	}
	for _, spec := range sel.Specs {
		name, count, hasCount := strings.Cut(spec, "=")
		n := 1
		if hasCount {
			v, err := strconv.Atoi(count)
			if err != nil || v < 0 {
				return nil, usage.Errorf("--scenario %s: COUNT must be a whole number, 0 or more", spec)
			}
			n = v
		}
		if _, err := c.Lookup(name); err != nil {
			return nil, fmt.Errorf("--scenario %s: %w", spec, err)
		}
		counts[name] = n
	}
	for name, n := range counts {
		if n == 0 {
			delete(counts, name)
		}
	}
	if len(counts) == 0 {
		return nil, usage.Errorf("no scenario chosen: use --scenario NAME=COUNT, --tags or --all")
	}
	return counts, nil
}
