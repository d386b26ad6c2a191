package report

import (
	"cmp"
	"slices"
	"time"

	"github.com/joinbench/joinbench/results"
)

// ErrorSample is one error code of a scenario: how often it failed so,
// and the first such failure's SQLSTATE and message.
type ErrorSample struct {
	Code     int32     `json:"code"`
	Count    int64     `json:"count"`
	SQLState string    `json:"sql_state,omitempty"`
	Message  string    `json:"message,omitempty"`
	First    time.Time `json:"first"`
}

// firstErrors remembers, per error code, where its first failure is (the
// earliest start, then the first in scan order), to read its message
// back.
type firstErrors map[int32]firstError

type firstError struct {
	start int64
	ref   results.RowRef
}

func (e firstError) before(o firstError) bool {
	return e.start < o.start || e.start == o.start && e.ref.Compare(o.ref) < 0
}

func (f firstErrors) add(code int32, start int64, ref results.RowRef) {
	e := firstError{start, ref}
	if old, ok := f[code]; !ok || e.before(old) {
		f[code] = e
	}
}

func (f firstErrors) merge(o firstErrors) {
	for code, e := range o {
		if old, ok := f[code]; !ok || e.before(old) {
			f[code] = e
		}
	}
}

// errorSamples lists a scenario's error codes, most frequent first, with
// the messages read back (by ref).
func errorSamples(counts map[int32]int64, first firstErrors, rows map[results.RowRef]*results.Execution) []ErrorSample {
	var out []ErrorSample
	for code, n := range counts {
		s := ErrorSample{Code: code, Count: n}
		if fe, ok := first[code]; ok {
			s.First = time.Unix(0, fe.start).UTC()
			if e := rows[fe.ref]; e != nil {
				s.SQLState, s.Message = e.SQLState, e.ErrorMessage
			}
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b ErrorSample) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Code, b.Code)) })
	return out
}
