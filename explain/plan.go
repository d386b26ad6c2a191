package explain

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
)

// node is a JSON value that keeps the order of object keys, which is the
// order the server prints a plan in.
type node struct {
	obj    []member // object
	arr    []*node  // array
	isObj  bool
	isArr  bool
	scalar any // string, json.Number, bool or nil
}

type member struct {
	key string
	val *node
}

func (n *node) get(key string) *node {
	for _, m := range n.obj {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// str renders a scalar, or an array of scalars as a comma-separated list.
func (n *node) str() string {
	if n == nil {
		return ""
	}
	if n.isArr {
		parts := make([]string, 0, len(n.arr))
		for _, e := range n.arr {
			parts = append(parts, e.str())
		}
		return strings.Join(parts, ",")
	}
	if n.isObj {
		return ""
	}
	switch v := n.scalar.(type) {
	case nil:
		return "null"
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

func parseJSON(s string) (*node, error) {
	dec := json.NewDecoder(strings.NewReader(RepairJSON(s)))
	dec.UseNumber()
	n, err := decodeNode(dec)
	if err != nil {
		return nil, fmt.Errorf("plan JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("plan JSON: trailing data")
	}
	return n, nil
}

func decodeNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{isObj: true}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				n.obj = append(n.obj, member{kt.(string), v})
			}
			_, err := dec.Token() // }
			return n, err
		case '[':
			n := &node{isArr: true}
			for dec.More() {
				v, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				n.arr = append(n.arr, v)
			}
			_, err := dec.Token() // ]
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return &node{scalar: t}, nil
	}
}

// line is one line of a plan tree: the shape part goes into the hash, the
// estimates part is only shown.
type line struct {
	depth     int
	shape     string
	estimates string
}

// shapeLines walks a plan. MySQL and MariaDB share the query_block /
// nested_loop / table structure with different wrappers; TiDB's
// tidb_json is a tree of operators.
func shapeLines(fl flavor.Flavor, jsonPlan string) ([]line, error) {
	root, err := parseJSON(jsonPlan)
	if err != nil {
		return nil, err
	}
	w := &walker{}
	if fl.Name == flavor.TiDB || (root.isArr && len(root.arr) > 0 && root.arr[0].get("id") != nil) {
		w.tidb(root, 0)
	} else {
		if !root.isObj || root.get("query_block") == nil {
			return nil, fmt.Errorf("plan JSON: no query_block")
		}
		w.walk("", root, 0)
	}
	if len(w.lines) == 0 {
		return nil, fmt.Errorf("plan JSON: empty plan")
	}
	return w.lines, nil
}

type walker struct{ lines []line }

func (w *walker) add(depth int, shape, est string) {
	w.lines = append(w.lines, line{depth, shape, est})
}

// skipKeys are never part of the shape nor the tree: estimates, costs,
// conditions (they hold literal values), statistics of ANALYZE runs.
var skipKeys = map[string]bool{
	"cost_info": true, "possible_keys": true, "used_columns": true, "key_length": true,
	"rows": true, "filtered": true, "rows_examined_per_scan": true, "rows_produced_per_join": true,
	"attached_condition": true, "index_condition": true, "index_condition_bka": true,
	"pushed_index_condition": true, "having_condition": true, "outer_ref_condition": true,
	"sort_key": true, "partitions": true, "cost": true, "loops": true, "query_cost": true,
	"buffer_size": true, "selectivity_pct": true, "used_columns_count": true,
	"pseudo_bits_condition": true, "const_condition": true, "attached_subqueries_condition": true,
	"table_name": true, "access_type": true, "key": true, "used_key_parts": true, "ref": true,
	"join_type": true, "buffer_type": true, "select_id": true,
	"query_optimization": true, // ANALYZE timing of the optimizer
}

// flagKeys are scalar attributes that are part of the shape wherever they
// appear (wrappers and tables): join algorithms, covering index use, semi
// join strategies, temporary tables.
var flagKeys = []string{
	"using_index", "using_index_for_group_by", "using_join_buffer", "using_MRR",
	"using_temporary_table", "using_filesort", "distinct", "first_match", "loose_scan",
	"not_exists", "start_temporary", "end_temporary", "dependent", "cacheable",
	"materialized", "message", "impossible_on_condition", "impossible_where", "union",
	"lookup_type", "strategy", "index", "unique", "const_row_not_found", "no_matching_row_in_const_table",
}

func isStatKey(k string) bool { return strings.HasPrefix(k, "r_") }

// normRef drops the database from db.table.column references so that the
// same plan on two schemas hashes the same.
func normRef(n *node) string {
	if n == nil {
		return ""
	}
	var parts []string
	items := n.arr
	if !n.isArr {
		items = []*node{n}
	}
	for _, e := range items {
		s := e.str()
		if f := strings.Split(s, "."); len(f) >= 3 {
			s = strings.Join(f[len(f)-2:], ".")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ",")
}

func flags(n *node) []string {
	var out []string
	for _, k := range flagKeys {
		v := n.get(k)
		if v == nil || v.isObj || v.isArr {
			continue
		}
		switch s := v.str(); s {
		case "true":
			out = append(out, k)
		case "false":
		default:
			out = append(out, k+"="+s)
		}
	}
	return out
}

// walk renders key: n at depth. Wrappers (query_block, filesort,
// ordering_operation, block-nl-join, ...) become a line each; a "table"
// object becomes one line with its access; arrays (nested_loop,
// subqueries, union members) list their elements in order.
func (w *walker) walk(key string, n *node, depth int) {
	switch {
	case n.isArr:
		if key != "nested_loop" {
			w.add(depth, key, "")
			depth++
		}
		for _, e := range n.arr {
			w.walk("", e, depth)
		}
		return
	case !n.isObj:
		return
	}
	if key == "table" {
		w.table(n, depth)
		return
	}
	if key != "" {
		label := key
		if id := n.get("select_id"); key == "query_block" && id != nil {
			label += " #" + id.str()
		}
		if jt := n.get("join_type"); jt != nil {
			label += " " + jt.str()
		}
		if bt := n.get("buffer_type"); bt != nil {
			label += " buffer=" + bt.str()
		}
		if name := n.get("table_name"); name != nil {
			label += " " + name.str()
		}
		if f := flags(n); len(f) > 0 {
			label += " " + strings.Join(f, " ")
		}
		w.add(depth, label, "")
	} else {
		depth--
	}
	for _, m := range n.obj {
		if skipKeys[m.key] || isStatKey(m.key) || !(m.val.isObj || m.val.isArr) {
			continue
		}
		w.walk(m.key, m.val, depth+1)
	}
}

// table renders one table access and then any subquery it holds
// (materialized_from_subquery, attached_subqueries).
func (w *walker) table(n *node, depth int) {
	var b strings.Builder
	b.WriteString(n.get("table_name").str())
	if b.Len() == 0 {
		b.WriteString("?")
	}
	if at := n.get("access_type"); at != nil {
		b.WriteString(" " + at.str())
	}
	if k := n.get("key"); k != nil {
		b.WriteString(" key=" + k.str())
		if parts := n.get("used_key_parts"); parts != nil {
			b.WriteString("(" + parts.str() + ")")
		}
	}
	if r := n.get("ref"); r != nil {
		b.WriteString(" ref=" + normRef(r))
	}
	for _, f := range flags(n) {
		b.WriteString(" " + f)
	}
	// inline objects such as rowid_filter or index_merge, without estimates
	var nested []member
	for _, m := range n.obj {
		if skipKeys[m.key] || isStatKey(m.key) || !(m.val.isObj || m.val.isArr) {
			continue
		}
		if hasQueryBlock(m.val) {
			nested = append(nested, m)
			continue
		}
		b.WriteString(" " + m.key + "{" + inline(m.val) + "}")
	}
	var est []string
	for _, k := range []string{"rows", "rows_examined_per_scan", "filtered", "r_rows", "r_loops", "r_filtered"} {
		if v := n.get(k); v != nil && !v.isObj && !v.isArr {
			est = append(est, k+"="+v.str())
		}
	}
	w.add(depth, b.String(), strings.Join(est, " "))
	for _, m := range nested {
		w.walk(m.key, m.val, depth+1)
	}
}

func hasQueryBlock(n *node) bool {
	for _, m := range n.obj {
		if m.key == "query_block" || hasQueryBlock(m.val) {
			return true
		}
	}
	for _, e := range n.arr {
		if hasQueryBlock(e) {
			return true
		}
	}
	return false
}

// inline renders the shape-relevant content of a small object on one line.
func inline(n *node) string {
	var parts []string
	if n.isArr {
		for _, e := range n.arr {
			parts = append(parts, inline(e))
		}
		return strings.Join(parts, ",")
	}
	for _, m := range n.obj {
		switch {
		case isStatKey(m.key):
		case m.key == "key" || m.key == "access_type" || m.key == "table_name":
			parts = append(parts, m.key+"="+m.val.str())
		case m.key == "used_key_parts":
			parts = append(parts, "("+m.val.str()+")")
		case skipKeys[m.key]:
		case m.val.isObj || m.val.isArr:
			parts = append(parts, m.key+"{"+inline(m.val)+"}")
		}
	}
	return strings.Join(parts, " ")
}

var tidbIDSuffix = regexp.MustCompile(`_\d+$`)

// tidb renders a tidb_json plan: operators with subOperators.
func (w *walker) tidb(n *node, depth int) {
	if n.isArr {
		for _, e := range n.arr {
			w.tidb(e, depth)
		}
		return
	}
	if !n.isObj {
		return
	}
	shape := tidbIDSuffix.ReplaceAllString(n.get("id").str(), "")
	if t := n.get("taskType"); t != nil {
		shape += " " + t.str()
	}
	if a := n.get("accessObject"); a != nil {
		shape += " " + a.str()
	}
	est := ""
	if r := n.get("estRows"); r != nil {
		est = "rows=" + r.str()
	}
	w.add(depth, shape, est)
	if sub := n.get("subOperators"); sub != nil {
		w.tidb(sub, depth+1)
	}
}

// ShapeHash returns 16 hex digits identifying the plan's shape: tables in
// join order, access types, keys and key parts used, ref sources, join
// algorithm and buffer, subquery and derived table structure, sort and
// temporary table steps. Costs, row estimates, filtered percentages,
// conditions and literal values are left out, so the same plan explained
// with other parameter values has the same hash.
func ShapeHash(fl flavor.Flavor, jsonPlan string) (string, error) {
	lines, err := shapeLines(fl, jsonPlan)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Reset()
		fmt.Fprintf(&buf, "%d\x00%s\n", l.depth, l.shape)
		h.Write(buf.Bytes())
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// Tree renders the plan as an indented tree, one line per table access
// (table, access type, key and key parts, ref, join algorithm; then the
// row estimates after "  # ") and one per wrapping step (query block,
// sort, temporary table, join buffer, subqueries). Lines without the
// estimates are what ShapeHash hashes.
func Tree(fl flavor.Flavor, jsonPlan string) (string, error) {
	lines, err := shapeLines(fl, jsonPlan)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.Repeat("  ", max(l.depth, 0)))
		b.WriteString(l.shape)
		if l.estimates != "" {
			b.WriteString("  # " + l.estimates)
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}
