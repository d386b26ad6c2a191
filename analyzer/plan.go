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

// ConstAccess reports whether the server reads the table once, before any
// join: its place in the plan says nothing about the join order.
func (t *PlanTable) ConstAccess() bool {
	return t.Access == "const" || t.Access == "system"
}

func (t *PlanTable) UsesKey(name string) bool {
	for _, k := range t.Keys {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// Describe says how the plan reads the table, for messages.
func (t *PlanTable) Describe() string {
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
	sc, err := ReadScenario(path, src)
	if err != nil {
		return nil
	}
	u := newUnit(path, src, sc, opts.Schema, opts)
	if u.parseErr != nil || u.res == nil {
		return nil
	}
	var diags []Diagnostic
	for _, a := range u.rules {
		sev := opts.severity(a)
		if !a.NeedsPlan || sev == Off {
			continue
		}
		p := newPass(u, a, &diags, plan)
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

// SortDiagnostics orders findings by file, then position, then rule: the
// order AnalyzeAll returns them in, for findings gathered from several
// checks.
func SortDiagnostics(d []Diagnostic) { sortDiagnostics(d) }
