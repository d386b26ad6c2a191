package report

import (
	"slices"
	"time"

	"github.com/joinbench/joinbench/results"
)

// slowestKept is how many of its slowest executions a scenario's report
// lists.
const slowestKept = 10

// SlowExecution is one of a scenario's slowest executions, as its row
// holds it.
type SlowExecution struct {
	Start     time.Time `json:"start"`
	LatencyMs float64   `json:"latency_ms"`
	ErrorCode int32     `json:"error_code,omitempty"`
	Endpoint  string    `json:"endpoint,omitempty"`
	Node      string    `json:"node,omitempty"`
	Thread    int32     `json:"thread"`
	Rows      int64     `json:"rows"`
	PlanHash  string    `json:"plan_hash,omitempty"`
	// Params are the values bound, in placeholder order; nil when the row
	// could not be read back.
	Params       []string `json:"params"`
	ErrorMessage string   `json:"error_message,omitempty"`
}

// slowRow is a candidate for the slowest executions: what the column
// scan knows of it, and where the rest is.
type slowRow struct {
	latency, start int64
	code           int32
	plan           string
	ref            results.RowRef
}

// before orders slow rows slowest first, then in the order a scan reads
// them, so that the rows kept do not depend on which worker read which
// file.
func (a slowRow) before(b slowRow) bool {
	if a.latency != b.latency {
		return a.latency > b.latency
	}
	return a.ref.Compare(b.ref) < 0
}

// slowest keeps the slowestKept slowest rows offered, slowest first. A
// worker offers its rows in scan order, so a row as slow as the last kept
// comes after it and is not kept: floor is the latency a row must pass.
type slowest struct {
	rows  []slowRow
	floor int64
}

func newSlowest() slowest { return slowest{floor: -1} }

// offer keeps r when it is among the slowest (the caller checked that
// its latency passes floor).
func (s *slowest) offer(r slowRow) {
	i, _ := slices.BinarySearchFunc(s.rows, r, func(x, y slowRow) int {
		if x.before(y) {
			return -1
		}
		return 1
	})
	if len(s.rows) < slowestKept {
		s.rows = slices.Insert(s.rows, i, r)
	} else {
		copy(s.rows[i+1:], s.rows[i:len(s.rows)-1])
		s.rows[i] = r
	}
	if len(s.rows) == slowestKept {
		s.floor = s.rows[len(s.rows)-1].latency
	}
}

// merge keeps the slowest of both.
func (s *slowest) merge(o *slowest) {
	all := append(slices.Clone(s.rows), o.rows...)
	slices.SortFunc(all, func(x, y slowRow) int {
		if x.before(y) {
			return -1
		}
		return 1
	})
	s.rows = all[:min(len(all), slowestKept)]
	s.floor = -1
	if len(s.rows) == slowestKept {
		s.floor = s.rows[len(s.rows)-1].latency
	}
}
