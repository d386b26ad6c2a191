package corpus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/internal/suggest"
	"github.com/joinbench/joinbench/internal/usage"
)

// Lookup returns the named scenario, or a user error that names the
// nearest one ("did you mean ...?").
func (c *Corpus) Lookup(name string) (*Scenario, error) {
	if s := c.Get(name); s != nil {
		return s, nil
	}
	return nil, usage.Errorf("no scenario %q%s (joinbench list shows them)", name, c.nearName(name))
}

// nearName suggests the scenario a mistyped name most likely meant: the
// one that differs only in case (simple_left_pk_gb), else the nearest by
// edit distance (simpel_inner_pk).
func (c *Corpus) nearName(name string) string {
	var names []string
	for _, s := range c.Scenarios() {
		if strings.EqualFold(s.Name, name) {
			return "; did you mean " + s.Name + "?"
		}
		names = append(names, s.Name)
	}
	return suggest.DidYouMean(name, names)
}

// Tagged returns the scenarios that tags select, as --tags gives them to
// run, ab and list alike: those carrying any of the entries, where an
// entry is a tag or tags joined by "+" (left+hint), which a scenario must
// carry all of. A tag no scenario carries, and entries that select
// nothing, are user errors.
func (c *Corpus) Tagged(tags []string) ([]*Scenario, error) {
	flag := "--tags " + strings.Join(tags, ",")
	var known []string
	for _, s := range c.Scenarios() {
		for _, t := range s.Tags {
			if !slices.Contains(known, t) {
				known = append(known, t)
			}
		}
	}
	var entries [][]string
	for _, e := range tags {
		var all []string
		for _, t := range strings.Split(e, "+") {
			if t = strings.TrimSpace(t); t == "" {
				continue
			}
			if !slices.Contains(known, t) {
				return nil, usage.Errorf("%s: no scenario has the tag %q%s (joinbench list shows the tags)", flag, t, suggest.DidYouMean(t, known))
			}
			all = append(all, t)
		}
		if len(all) > 0 {
			entries = append(entries, all)
		}
	}
	var out []*Scenario
	for _, s := range c.Scenarios() {
		if slices.ContainsFunc(entries, func(all []string) bool { return hasEvery(s.Tags, all) }) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, usage.Errorf("%s: no scenario has these tags (joinbench list shows them)", flag)
	}
	return out, nil
}

func hasEvery(have, want []string) bool {
	for _, t := range want {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}

// Selection is what a run executes: how many times each scenario runs per
// event, as the reference workload counts them.
type Selection struct {
	All   bool     // every scenario, once per event
	Tags  []string // every scenario Tagged selects, once per event
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
		tagged, err := c.Tagged(sel.Tags)
		if err != nil {
			return nil, err
		}
		for _, s := range tagged {
			counts[s.Name] = 1
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
