package rules

import (
	"strings"

	"github.com/joinbench/joinbench/analyzer"
)

// planView matches a file's table references with the accesses of its
// plan.
type PlanView struct {
	P    *analyzer.Pass
	Plan *analyzer.Plan
	// selectID maps the token index of each SELECT keyword to the number
	// the server gives its query block.
	selectID map[int]int
}

func NewPlanView(p *analyzer.Pass) *PlanView {
	v := &PlanView{P: p, Plan: p.Plan, selectID: map[int]int{}}
	n := 0
	for i, t := range p.Tokens {
		if t.Is("SELECT") {
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
func (v *PlanView) Find(r *analyzer.TableRef) int {
	if r.Derived {
		return -1
	}
	name := r.Visible()
	if id, ok := v.selectID[r.Block]; ok {
		at := -1
		for i := range v.Plan.Tables {
			t := &v.Plan.Tables[i]
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
	for _, o := range v.P.TableRefs {
		if o != r && !o.Derived && strings.EqualFold(o.Visible(), name) {
			return -1
		}
	}
	at := -1
	for i := range v.Plan.Tables {
		if strings.EqualFold(v.Plan.Tables[i].Name, name) {
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
func (v *PlanView) BlockRefs(block int) []*analyzer.TableRef {
	var out []*analyzer.TableRef
	for _, r := range v.P.TableRefs {
		if r.Block == block && !r.Derived {
			out = append(out, r)
		}
	}
	return out
}

// refNamed returns the table of the block the name (as a hint writes it)
// stands for.
func (v *PlanView) RefNamed(block int, name string) *analyzer.TableRef {
	for _, r := range v.BlockRefs(block) {
		if strings.EqualFold(r.Visible(), name) {
			return r
		}
	}
	return nil
}

// planOrder returns the tables of the block in the order the plan reads
// them, leaving out those it does not find and those read as constants.
func (v *PlanView) PlanOrder(refs []*analyzer.TableRef) []*analyzer.TableRef {
	type placed struct {
		r   *analyzer.TableRef
		pos int
	}
	var ps []placed
	for _, r := range refs {
		if i := v.Find(r); i >= 0 && !v.Plan.Tables[i].ConstAccess() {
			ps = append(ps, placed{r, i})
		}
	}
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].pos < ps[j-1].pos; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
	out := make([]*analyzer.TableRef, len(ps))
	for i, p := range ps {
		out[i] = p.r
	}
	return out
}

func RefNames(refs []*analyzer.TableRef) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Visible()
	}
	return strings.Join(names, ", ")
}
