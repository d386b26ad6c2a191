package ingest

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"
)

// maxValues bounds the distinct values kept per slot of a group, and
// maxTimes the query times kept per group for its p95 (a reservoir
// beyond): a log of millions of executions keeps bounded memory.
const (
	maxValues = 1000
	maxTimes  = 10000
)

// Group is the statements of one fingerprint.
type Group struct {
	Fingerprint string
	// ID is the first 8 hex digits of the SHA-256 of the fingerprint:
	// the same statement shape gets the same scenario name in every
	// import.
	ID string
	// Example is the first statement seen, taken apart: its text is the
	// scenario's.
	Example *Shape
	// Database is the default database of the first statement that names
	// one.
	Database string
	Count    int64
	// Total is the time of all executions (0 when no source timed them);
	// Timed says whether any did.
	Total time.Duration
	Timed bool
	// Max and P95 of the executions' times; P95Known is false when the
	// source kept no distribution (a digest row without QUANTILE_95).
	Max      time.Duration
	P95      time.Duration
	P95Known bool
	// RowsExamined and RowsSent summed over the executions the log timed.
	RowsExamined, RowsSent int64
	// Values are the distinct values seen in each slot of the
	// fingerprint, in first-seen order (at most maxValues each), and
	// Quoted whether a slot held strings.
	Values [][]string
	Quoted []bool
	// FirstSeen is where the first statement is (file:line).
	FirstSeen string
	// Sources are the kinds of source read (slow log, general log,
	// digest), each once.
	Sources []string

	times   []time.Duration
	seen    []map[string]bool
	fromLog bool // times came from log entries (the p95 is computed)
	rng     uint64
}

// Set is every group read, by fingerprint.
type Set struct {
	groups map[string]*Group
	order  []*Group
	// Skipped counts statements left out, by reason ("SHOW", "password",
	// "system schema" ...).
	Skipped map[string]int64
	// Read is the number of statements (or digest executions) read.
	Read int64
	// Filter decides what is kept; nil keeps what Keep keeps by default.
	Filter *Filter
}

// NewSet returns an empty set filtered by f (nil: the default filter).
func NewSet(f *Filter) *Set {
	if f == nil {
		f = &Filter{}
	}
	return &Set{groups: map[string]*Group{}, Skipped: map[string]int64{}, Filter: f}
}

// AddStatement adds one logged statement; kind is its source ("slow
// log", "general log").
func (s *Set) AddStatement(st Statement, kind string) {
	s.Read++
	if reason := s.Filter.skipDatabase(st.Database); reason != "" {
		s.Skipped[reason]++
		return
	}
	if reason := s.Filter.skip(st.SQL); reason != "" {
		s.Skipped[reason]++
		return
	}
	sh := Fingerprint(st.SQL)
	if reason := s.Filter.skipShape(sh); reason != "" {
		s.Skipped[reason]++
		return
	}
	g := s.group(sh, st.Database, st.Source, kind)
	if g == nil {
		s.Skipped["slots differ from the first statement of the fingerprint"]++
		return
	}
	g.Count++
	if st.HasTime {
		g.Timed, g.fromLog = true, true
		g.Total += st.Time
		g.Max = max(g.Max, st.Time)
		g.keepTime(st.Time)
		g.RowsExamined += st.RowsExamined
		g.RowsSent += st.RowsSent
	}
	g.addValues(sh)
}

// AddDigest adds one row of the digest table: its count and times, and
// the values of its sample statement when the server kept one.
func (s *Set) AddDigest(row DigestRow) {
	s.Read += row.Count
	if reason := s.Filter.skipDatabase(row.Schema); reason != "" {
		s.Skipped[reason] += row.Count
		return
	}
	text := digestSQL(row.Text)
	if reason := s.Filter.skip(text); reason != "" || row.Sample != "" && s.Filter.skip(row.Sample) != "" {
		if reason == "" {
			reason = s.Filter.skip(row.Sample)
		}
		s.Skipped[reason] += row.Count
		return
	}
	sh := Fingerprint(text)
	if row.Sample != "" {
		if sample := Fingerprint(row.Sample); len(sample.Slots) == len(sh.Slots) {
			sh = sample
		}
	}
	if reason := s.Filter.skipShape(sh); reason != "" {
		s.Skipped[reason] += row.Count
		return
	}
	g := s.group(sh, row.Schema, row.Source, "performance_schema digest")
	if g == nil {
		s.Skipped["slots differ from the first statement of the fingerprint"] += row.Count
		return
	}
	g.Count += row.Count
	g.Timed = true
	g.Total += row.Total
	g.Max = max(g.Max, row.Max)
	g.RowsExamined += row.RowsExamined
	g.RowsSent += row.RowsSent
	if row.P95 > 0 && !g.fromLog {
		g.P95, g.P95Known = max(g.P95, row.P95), true
	}
	g.addValues(sh)
}

// group finds or starts the group of a shape; nil when the shape's slots
// do not line up with the group's (which a fingerprint rules out but for
// a digest text and a sample that disagree).
func (s *Set) group(sh *Shape, db, source, kind string) *Group {
	// One group per fingerprint whatever the database: the scenario's
	// name is the fingerprint's, and a live server's database (Filter)
	// leaves out the statements of others.
	key := sh.Fingerprint
	g := s.groups[key]
	if g == nil {
		sum := sha256.Sum256([]byte(sh.Fingerprint))
		g = &Group{Fingerprint: sh.Fingerprint, ID: hex.EncodeToString(sum[:4]), Example: sh, Database: db,
			FirstSeen: source, Values: make([][]string, len(sh.Slots)), Quoted: make([]bool, len(sh.Slots)),
			seen: make([]map[string]bool, len(sh.Slots)), rng: uint64(sum[4])<<8 | uint64(sum[5]) | 1}
		for i := range g.seen {
			g.seen[i] = map[string]bool{}
		}
		s.groups[key] = g
		s.order = append(s.order, g)
	}
	if len(sh.Slots) != len(g.Values) {
		return nil
	}
	if g.Database == "" {
		g.Database = db
	}
	if !slices.Contains(g.Sources, kind) {
		g.Sources = append(g.Sources, kind)
	}
	return g
}

func (g *Group) addValues(sh *Shape) {
	for i, slot := range sh.Slots {
		for _, v := range slot.Values {
			if v.Unknown {
				continue
			}
			if v.Quoted {
				g.Quoted[i] = true
			}
			if !g.seen[i][v.Text] && len(g.Values[i]) < maxValues {
				g.seen[i][v.Text] = true
				g.Values[i] = append(g.Values[i], v.Text)
			}
		}
	}
}

// keepTime keeps a query time for the p95: all of the first maxTimes,
// then a reservoir sample (seeded by the fingerprint, so an import is
// repeatable).
func (g *Group) keepTime(d time.Duration) {
	if len(g.times) < maxTimes {
		g.times = append(g.times, d)
		return
	}
	g.rng ^= g.rng << 13
	g.rng ^= g.rng >> 7
	g.rng ^= g.rng << 17
	if j := g.rng % uint64(g.Count); j < maxTimes {
		g.times[j] = d
	}
}

// finish computes the p95 of the times kept (nearest rank).
func (g *Group) finish() {
	if !g.fromLog || len(g.times) == 0 {
		return
	}
	t := slices.Clone(g.times)
	slices.Sort(t)
	rank := (95*len(t) + 99) / 100
	g.P95, g.P95Known = t[max(rank-1, 0)], true
}

// Ranked returns the groups, most total time first, then most executions,
// then fingerprint (for a stable order); by count first when byCount.
func (s *Set) Ranked(byCount bool) []*Group {
	out := slices.Clone(s.order)
	for _, g := range out {
		g.finish()
	}
	slices.SortFunc(out, func(a, b *Group) int {
		first, second := cmp.Compare(b.Total, a.Total), cmp.Compare(b.Count, a.Count)
		if byCount {
			first, second = second, first
		}
		if first != 0 {
			return first
		}
		if second != 0 {
			return second
		}
		return strings.Compare(a.Fingerprint, b.Fingerprint)
	})
	return out
}
