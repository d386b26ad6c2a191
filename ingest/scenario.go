package ingest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
)

// Scenario is one scenario file an import writes, with the value lists
// its list(NAME) placeholders name.
type Scenario struct {
	Name  string
	Text  string
	Lists map[string][]string
	// Writes are the kinds of its statements that are not plain reads
	// (the corpus's classification).
	Writes []string
	Group  *Group
}

// BuildOptions are how a group becomes a scenario.
type BuildOptions struct {
	InferOptions
	// Schema is the model the columns are looked up in; nil when none
	// was given (kinds then come from the values alone).
	Schema *ddl.Schema
	// Writes keeps a scenario with a statement that is not a plain read;
	// without, Build returns ErrWrite for it.
	Writes bool
}

// ErrWrite is Build's refusal of a scenario that writes when
// BuildOptions.Writes is false.
var ErrWrite = fmt.Errorf("writes")

// Build makes the scenario of a group: its name, its header saying where
// it came from, its placeholders and its SQL.
func Build(g *Group, o BuildOptions) (*Scenario, error) {
	sh := g.Example
	name := ScenarioName(g)
	params, err := Infer(g, sh.Uses(o.Schema), name, o.InferOptions)
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", name, g.FirstSeen, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "-- scenario: %s\n", name)
	fmt.Fprintf(&b, "-- description: %s\n", describe(g))
	fmt.Fprintf(&b, "-- description: first seen at %s; fingerprint %s\n", g.FirstSeen, g.ID)
	fmt.Fprintf(&b, "-- tags: %s\n", strings.Join(tags(sh), ", "))
	fmt.Fprintf(&b, "-- Imported by joinbench import. Edit freely: a new import writes this file again.\n")
	sc := &Scenario{Name: name, Lists: map[string][]string{}, Group: g}
	for _, ps := range params {
		if len(ps) == 0 || ps[0].Decl == "" {
			continue
		}
		p := ps[0]
		fmt.Fprintf(&b, "-- Values of %s: %s\n", strings.Join(names(ps), ", "), p.Why)
	}
	for _, ps := range params {
		for _, p := range ps {
			if p.Decl == "" {
				continue
			}
			fmt.Fprintf(&b, "-- param %s: %s\n", p.Name, p.Decl)
			if p.ListName != "" {
				sc.Lists[p.ListName] = p.List
			}
		}
	}
	for _, pc := range sh.pieces {
		if pc.slot < 0 {
			b.WriteString(pc.text)
			continue
		}
		ps := params[pc.slot]
		if len(ps) == 1 && ps[0].Decl == "" {
			if known(sh.Slots[pc.slot]) {
				b.WriteString(pc.orig)
			} else {
				b.WriteString(ps[0].Literal)
			}
			continue
		}
		for k, p := range ps {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString("{{" + p.Name + "}}")
		}
	}
	b.WriteString(";\n")
	sc.Text = b.String()
	s, err := corpus.ParseFile(name+".sql", []byte(sc.Text))
	if err != nil {
		return nil, fmt.Errorf("%s (%s): the scenario made does not load: %w", name, g.FirstSeen, err)
	}
	for _, k := range s.Writes() {
		if k == corpus.StmtUnparsed {
			// Most often a digest text the server cut at
			// performance_schema_max_digest_length (1024 bytes by default).
			return nil, fmt.Errorf("%s (%s): the statement does not parse; a digest text cut at performance_schema_max_digest_length? (import a slow log for it)", name, g.FirstSeen)
		}
		sc.Writes = append(sc.Writes, string(k))
	}
	if len(sc.Writes) > 0 && !o.Writes {
		return sc, ErrWrite
	}
	return sc, nil
}

func known(s Slot) bool {
	for _, v := range s.Values {
		if v.Unknown {
			return false
		}
	}
	return true
}

func names(ps []Param) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// describe is the first description line: how often and how long.
func describe(g *Group) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s executions", thousands(g.Count))
	if g.Timed {
		fmt.Fprintf(&b, ", %s total", round(g.Total))
		if g.P95Known {
			fmt.Fprintf(&b, ", p95 %s", round(g.P95))
		} else {
			fmt.Fprintf(&b, ", p95 not recorded")
		}
		fmt.Fprintf(&b, ", max %s", round(g.Max))
	} else {
		b.WriteString(", not timed")
	}
	if g.Database != "" {
		fmt.Fprintf(&b, ", database %s", g.Database)
	}
	fmt.Fprintf(&b, " (%s)", strings.Join(g.Sources, ", "))
	return b.String()
}

func round(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Microsecond).String()
	}
	return d.String()
}

func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// tags are "imported", the statement's verb, "join" when it reads two
// tables or more, and the tables it names.
func tags(sh *Shape) []string {
	out := []string{"imported", verb(sh)}
	refs := tableRefs(sh.toks)
	if len(refs) > 1 {
		out = append(out, "join")
	}
	for _, t := range tableNames(refs) {
		if tag := nonTag.ReplaceAllString(t, "_"); !slices.Contains(out, tag) {
			out = append(out, tag)
		}
	}
	return out
}

var nonTag = regexp.MustCompile(`[^a-z0-9_]+`)

func verb(sh *Shape) string {
	for _, t := range sh.toks {
		switch t.text {
		case "select", "insert", "update", "delete", "replace":
			return t.text
		}
	}
	return "statement"
}

func tableNames(refs []tableRef) []string {
	var out []string
	for _, r := range refs {
		if r.table != "" && !slices.Contains(out, r.table) {
			out = append(out, r.table)
		}
	}
	return out
}

// ScenarioName is a group's scenario name: the verb, up to three of the
// tables it names and the fingerprint's id, so that a new import of the
// same statements writes the same files.
func ScenarioName(g *Group) string {
	parts := []string{verb(g.Example)}
	ts := tableNames(tableRefs(g.Example.toks))
	if len(ts) > 3 {
		ts = append(ts[:3], "etc")
	}
	for _, t := range ts {
		parts = append(parts, nonTag.ReplaceAllString(t, "_"))
	}
	parts = append(parts, g.ID)
	return strings.Join(parts, "_")
}
