package analyzer

import (
	"strings"
)

// Plan is what a live server chose for a file's statement, reduced to what
// the plan rules compare with the file: the table accesses in the order
// the server reads them. The analyzer never asks a server for it; the
// caller does (package analyzer/liveplan) and hands it to CheckPlan.
type Plan struct {
	Tables []PlanTable
}

// PlanTable is one table access of a plan.
type PlanTable struct {
	// SelectID is the query block, numbered as the server numbers them:
	// the n-th SELECT of the statement is n.
	SelectID int
	// Name is the table's name in the plan: its alias when it has one.
	Name string
	// Access is the access type: ALL, index, range, ref, eq_ref, const...
	Access string
	// Keys are the indexes the access reads (several for an index merge).
	Keys []string
}

// constAccess reports whether the server reads the table once, before any
// join: its place in the plan says nothing about the join order.
func (t *PlanTable) constAccess() bool {
	return t.Access == "const" || t.Access == "system"
}

func (t *PlanTable) usesKey(name string) bool {
	for _, k := range t.Keys {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// describe says how the plan reads the table, for messages.
func (t *PlanTable) describe() string {
	switch {
	case t.Access == "ALL":
		return "a full table scan (ALL)"
	case len(t.Keys) > 0:
		return "index " + strings.Join(t.Keys, ", ") + " (" + t.Access + ")"
	}
	return "access type " + t.Access
}

// CheckPlan runs the rules that need a plan (NeedsPlan) on one file,
// against the plan a server chose for its statement, and returns their
// findings after the file's suppressions. A file that does not parse, or
// whose statement is not the one the plan is of, yields nothing here: the
// static analysis reports what is wrong with it.
func CheckPlan(path, src string, opts *Options, plan *Plan) []Diagnostic {
	if opts == nil {
		opts = &Options{}
	}
	if plan == nil {
		return nil
	}
	sc, err := readFile(path, src)
	if err != nil {
		return nil
	}
	u := newUnit(path, src, sc, opts.Schema, opts)
	if u.parseErr != nil || u.res == nil {
		return nil
	}
	var diags []Diagnostic
	for _, a := range registry {
		sev := opts.severity(a)
		if !a.NeedsPlan || sev == Off {
			continue
		}
		p := &Pass{Analyzer: a, u: u, diags: &diags, plan: plan}
		start := len(diags)
		runRule(p)
		for i := start; i < len(diags); i++ {
			diags[i].Severity = sev
		}
	}
	diags = applySuppressions(u, diags, opts, true)
	sortDiagnostics(diags)
	return diags
}

// planView matches a file's table references with the accesses of its
// plan.
type planView struct {
	u    *unit
	plan *Plan
	// selectID maps the token index of each SELECT keyword to the number
	// the server gives its query block.
	selectID map[int]int
}

func newPlanView(p *Pass) *planView {
	v := &planView{u: p.u, plan: p.plan, selectID: map[int]int{}}
	n := 0
	for i, t := range p.u.toks {
		if t.is("SELECT") {
			n++
			v.selectID[i] = n
		}
	}
	return v
}

// find returns the index in the plan of the access of table reference r,
// or -1. The access is the one of r's query block with r's name; when the
// server merged the block into another (a derived table, a semi-join), a
// name no other reference of the statement has and the plan holds once
// still tells it.
func (v *planView) find(r *tableRef) int {
	if r.derived {
		return -1
	}
	name := r.visible()
	if id, ok := v.selectID[r.block]; ok {
		at := -1
		for i := range v.plan.Tables {
			t := &v.plan.Tables[i]
			if t.SelectID == id && strings.EqualFold(t.Name, name) {
				if at >= 0 {
					return -1 // a self-join under one name cannot be told apart
				}
				at = i
			}
		}
		if at >= 0 {
			return at
		}
	}
	for _, o := range v.u.refs {
		if o != r && !o.derived && strings.EqualFold(o.visible(), name) {
			return -1
		}
	}
	at := -1
	for i := range v.plan.Tables {
		if strings.EqualFold(v.plan.Tables[i].Name, name) {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// blockRefs returns the named tables of the query block opened by the
// token at index block, in source order.
func (v *planView) blockRefs(block int) []*tableRef {
	var out []*tableRef
	for _, r := range v.u.refs {
		if r.block == block && !r.derived {
			out = append(out, r)
		}
	}
	return out
}

// refNamed returns the table of the block the name (as a hint writes it)
// stands for.
func (v *planView) refNamed(block int, name string) *tableRef {
	for _, r := range v.blockRefs(block) {
		if strings.EqualFold(r.visible(), name) {
			return r
		}
	}
	return nil
}

// planOrder returns the tables of the block in the order the plan reads
// them, leaving out those it does not find and those read as constants.
func (v *planView) planOrder(refs []*tableRef) []*tableRef {
	type placed struct {
		r   *tableRef
		pos int
	}
	var ps []placed
	for _, r := range refs {
		if i := v.find(r); i >= 0 && !v.plan.Tables[i].constAccess() {
			ps = append(ps, placed{r, i})
		}
	}
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].pos < ps[j-1].pos; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
	out := make([]*tableRef, len(ps))
	for i, p := range ps {
		out[i] = p.r
	}
	return out
}

func refNames(refs []*tableRef) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.visible()
	}
	return strings.Join(names, ", ")
}

// SortDiagnostics orders findings by file, then position, then rule: the
// order AnalyzeAll returns them in, for findings gathered from several
// checks.
func SortDiagnostics(d []Diagnostic) { sortDiagnostics(d) }
