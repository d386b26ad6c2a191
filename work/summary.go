package work

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// Summary is the mean work per execution of samples of one scenario with
// one plan, all of one source.
type Summary struct {
	Samples int
	// RowsExamined is per execution; HasRowsExamined is false when no
	// sample had the counter.
	RowsExamined    float64
	HasRowsExamined bool
	// Pages is the buffer pool page requests per execution, when the
	// samples have them (MariaDB 10.9+).
	Pages    float64
	HasPages bool
	// Lookups is the index lookups per execution: the loops of the table
	// accesses that read an index, each a descent of its B-tree. Compared
	// is the rows compared through join buffers, which neither rows nor
	// lookups show. Both come from the tables, 0 without them.
	Lookups  float64
	Compared float64
	Tables   []TableSummary // in the order of the first sample's plan
}

// TableSummary is the mean work per execution of one table of a query
// block: its accesses together (a rowid filter's scan included).
type TableSummary struct {
	SelectID int32
	Name     string
	// Access, Key and JoinBuffer are those of the table's first access
	// that is not a rowid filter; Filter the key of its rowid filter.
	Access     string
	Key        string
	JoinBuffer string
	Filter     string
	Rows       float64
	Loops      float64
	Compared   float64
}

// Summarize averages the work of samples per execution. Samples of
// different sources must not be mixed: their figures count different
// things.
func Summarize(samples []*results.Work) Summary {
	s := Summary{Samples: len(samples)}
	if len(samples) == 0 {
		return s
	}
	type key struct {
		sel  int32
		name string
	}
	idx := map[key]int{}
	var rows, pages float64
	for _, w := range samples {
		if n, ok := Value(w.RowsExamined); ok {
			rows += float64(n)
			s.HasRowsExamined = true
		}
		if n, ok := Value(w.Pages); ok {
			pages += float64(n)
			s.HasPages = true
		}
		for _, t := range w.Tables {
			if !isTemporary(t.Name) {
				if t.Key != "" && t.Access != "rowid_filter" {
					s.Lookups += float64(t.Loops)
				}
				if n, ok := Value(t.Compared); ok {
					s.Compared += float64(n)
				}
			}
			k := key{t.SelectID, t.Name}
			i, ok := idx[k]
			if !ok {
				i = len(s.Tables)
				idx[k] = i
				s.Tables = append(s.Tables, TableSummary{SelectID: t.SelectID, Name: t.Name})
			}
			ts := &s.Tables[i]
			if t.Access == "rowid_filter" {
				ts.Filter = t.Key
			} else if ts.Access == "" {
				ts.Access, ts.Key, ts.JoinBuffer = t.Access, t.Key, t.JoinBuffer
				ts.Loops += float64(t.Loops)
			} else {
				ts.Loops += float64(t.Loops)
			}
			ts.Rows += float64(t.Rows)
			if n, ok := Value(t.Compared); ok {
				ts.Compared += float64(n)
			}
		}
	}
	n := float64(len(samples))
	s.RowsExamined, s.Pages = rows/n, pages/n
	s.Lookups /= n
	s.Compared /= n
	for i := range s.Tables {
		s.Tables[i].Rows /= n
		s.Tables[i].Loops /= n
		s.Tables[i].Compared /= n
	}
	return s
}

// How returns how the table is read, in EXPLAIN's words: "ref on
// idx_parent_id", "ALL (BNL join buffer, 57,140,000 rows compared)", "ref
// on idx_parent_id with rowid filter on idx_record_status".
func (t TableSummary) How() string {
	if t.Access == "" {
		return "not read"
	}
	s := t.Access
	if t.Key != "" {
		s += " on " + t.Key
	}
	var buf string
	switch t.JoinBuffer {
	case "":
	case "hash":
		buf = "hash join"
	default:
		buf = t.JoinBuffer + " join buffer"
	}
	if t.Compared > 0 {
		buf += ", " + FormatCount(t.Compared) + " rows compared"
	}
	if buf != "" {
		s += " (" + buf + ")"
	}
	if t.Filter != "" {
		s += " with rowid filter on " + t.Filter
	}
	return s
}

// maxDescribed is how many tables Describe names: the changes that explain
// a regression are few, and a line must stay readable.
const maxDescribed = 3

// Describe says in a DBA's words how the work of the tables changed from
// base to cand, the largest change first, for the tables whose access
// changed or whose rows changed by at least a tenth of the larger side's
// rows examined, e.g.
//
//	m: 2,857 → 6,600 rows/exec: ref on comp_attributes → eq_ref on PRIMARY; level1: 7,544 → 6,600 rows/exec: ref on idx_parent_id with rowid filter on idx_record_status → range on idx_record_status
//
// It says nothing ("") when no table changed so.
func Describe(base, cand Summary) string {
	type change struct {
		name       string
		from, to   float64
		how1, how2 string
	}
	var out []change
	total := math.Max(base.RowsExamined, cand.RowsExamined)
	for _, p := range PairTables(base.Tables, cand.Tables) {
		a, b := p.Base, p.Candidate
		if isTemporary(a.Name) {
			continue
		}
		if a.How() == b.How() && math.Abs(b.Rows-a.Rows) < total/10 {
			continue
		}
		out = append(out, change{a.Name, a.Rows, b.Rows, a.How(), b.How()})
	}
	sort.SliceStable(out, func(i, j int) bool {
		return math.Abs(out[i].to-out[i].from) > math.Abs(out[j].to-out[j].from)
	})
	if len(out) > maxDescribed {
		out = out[:maxDescribed]
	}
	parts := make([]string, len(out))
	for i, c := range out {
		p := c.name + ": " + FormatCount(c.from) + " → " + FormatCount(c.to) + " rows/exec"
		if c.how1 != c.how2 {
			p += ": " + c.how1 + " → " + c.how2
		} else {
			p += " (" + c.how1 + ")"
		}
		parts[i] = p
	}
	return strings.Join(parts, "; ")
}

// FormatCount writes a per-execution count as a DBA reads it: whole
// numbers with thousands separators (6,720), one decimal below ten when
// the mean is not whole (0.3).
func FormatCount(v float64) string {
	if v < 10 && v != math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	s := strconv.FormatInt(int64(math.Round(v)), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
