package analyzer

import "strings"

// planView matches a file's table references with the accesses of its
// plan.
type planView struct {
	p    *Pass
	plan *Plan
	// selectID maps the token index of each SELECT keyword to the number
	// the server gives its query block.
	selectID map[int]int
}

func newPlanView(p *Pass) *planView {
	v := &planView{p: p, plan: p.Plan, selectID: map[int]int{}}
	n := 0
	for i, t := range p.Tokens {
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
	for _, o := range v.p.TableRefs {
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
	for _, r := range v.p.TableRefs {
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
