package explain

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Access is how a plan reads one table: the lint plan rules compare it
// with the hints a statement gives.
type Access struct {
	// SelectID is the query block the access belongs to, as the server
	// numbers them (1 is the outermost SELECT).
	SelectID int
	// Table is the name the statement gives the table (its alias when it
	// has one), or the server's name for a derived or materialized table
	// (<derived2>, <subquery3>).
	Table string
	// Type is the access type: ALL, index, range, ref, eq_ref, const, ...
	Type string
	// Keys are the indexes the access reads: one, or several for an
	// index merge. Empty for a full table scan.
	Keys []string
}

// Accesses lists the table accesses of a MySQL or MariaDB FORMAT=JSON plan
// in the order the plan reads them: within a query block, the join order.
// TiDB plans have no such list and are refused.
func Accesses(jsonPlan string) ([]Access, error) {
	root, err := parseJSON(jsonPlan)
	if err != nil {
		return nil, err
	}
	if !root.isObj || root.get("query_block") == nil {
		return nil, fmt.Errorf("plan JSON: no query_block")
	}
	var out []Access
	collectAccesses(root, 0, &out)
	return out, nil
}

func collectAccesses(n *node, selectID int, out *[]Access) {
	switch {
	case n.isArr:
		for _, e := range n.arr {
			collectAccesses(e, selectID, out)
		}
		return
	case !n.isObj:
		return
	}
	if id := n.get("select_id"); id != nil {
		if v, err := strconv.Atoi(id.str()); err == nil {
			selectID = v
		}
	}
	for _, m := range n.obj {
		if m.key == "table" && m.val.isObj {
			*out = append(*out, tableAccess(m.val, selectID))
		}
		if m.val.isObj || m.val.isArr {
			collectAccesses(m.val, selectID, out)
		}
	}
}

var keyName = regexp.MustCompile("[A-Za-z0-9_$]+")

// mergeWords are the words MySQL wraps the indexes of an index merge in
// ("key": "union(idx_a,idx_b)").
var mergeWords = map[string]bool{"union": true, "intersect": true, "sort_union": true}

func tableAccess(t *node, selectID int) Access {
	a := Access{SelectID: selectID, Table: t.get("table_name").str(), Type: t.get("access_type").str()}
	if k := t.get("key"); k != nil {
		for _, w := range keyName.FindAllString(k.str(), -1) {
			if !mergeWords[strings.ToLower(w)] {
				a.Keys = append(a.Keys, w)
			}
		}
	}
	if im := t.get("index_merge"); im != nil {
		mergeKeys(im, &a.Keys)
	}
	return a
}

// mergeKeys gathers the "key" members of MariaDB's index_merge object.
func mergeKeys(n *node, keys *[]string) {
	for _, e := range n.arr {
		mergeKeys(e, keys)
	}
	for _, m := range n.obj {
		if m.key == "key" && !m.val.isObj && !m.val.isArr {
			*keys = append(*keys, m.val.str())
		} else {
			mergeKeys(m.val, keys)
		}
	}
}
