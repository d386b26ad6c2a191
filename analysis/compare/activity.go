package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/results"
)

// A side whose server stopped answering, lost its connections, or
// completed markedly fewer statements than the other did not measure its
// server's speed: its rounds hold less, or nothing, and the verdicts drawn
// from what is left say "no change" of a dead server. Such a side fails
// the comparison whatever its verdicts, said in one line (SideFailure).

// RoundActivity is what one round of a side did, whatever the scenario:
// the evidence that its server answered throughout.
type RoundActivity struct {
	// Completed counts the statements completed, succeeded or failed.
	Completed int64
	// ConnLost counts those that failed with the connection (the server
	// went away, reset it, or the client could not use it).
	ConnLost int64
	// Cut counts the statements still running when the round's run ended
	// (they count for the round they began in), LongestCutNs how long
	// the longest had run.
	Cut          int64
	LongestCutNs int64
	// IdleAtEndNs is how long before its run ended the round's last
	// statement completed (0 when unknown, or when the round is not the
	// last of its run).
	IdleAtEndNs int64
	// Unanswered counts the calls of its run that had no reply, even to
	// KILL QUERY (results.Run.Unanswered; on the run's last round).
	Unanswered int64
}

// Add counts one statement that ended with error code code (0:
// succeeded).
func (a *RoundActivity) Add(code int32) {
	a.Completed++
	if ConnectionLost(code) {
		a.ConnLost++
	}
}

// AddCut counts one statement cut at the end after running ranNs.
func (a *RoundActivity) AddCut(ranNs int64) {
	a.Cut++
	a.LongestCutNs = max(a.LongestCutNs, ranNs)
}

// ConnectionLost reports whether a statement's error code says its
// connection was lost: the client's own errors (-1: reset, closed, no
// usable reply), server gone or lost (2006, 2013), shutdown (1053), or the
// connection killed (1927 on MariaDB, 4031 on MySQL).
func ConnectionLost(code int32) bool {
	switch code {
	case -1, 2006, 2013, 1053, 1927, 4031:
		return true
	}
	return false
}

// Activity is what every round of both sides did, in round order.
type Activity struct {
	Base, Candidate []RoundActivity
	// Sliced: the rounds are the time slices of two runs in lockstep,
	// which take turns statement by statement, so that the two sides
	// complete about the same statements slice by slice; SliceNs is
	// their length.
	Sliced  bool
	SliceNs int64
}

// SideFailure says why a side failed: its server stopped answering, lost
// its connections, or completed markedly fewer statements than the other.
type SideFailure struct {
	Side   string `json:"side"` // results.SideBase or results.SideCandidate
	Reason string `json:"reason"`
}

func (f SideFailure) String() string { return "the " + f.Side + " failed: " + f.Reason }

// stuckMin is the shortest stretch at a run's end, without any statement
// completing while statements of it ran on until cut, that is taken for
// a server that stopped answering. A run gives the statements running at
// its end 5 s to finish before it cuts them; this is as long.
const stuckMin = 5 * time.Second

// Markedly fewer statements, in lockstep: fewer than fewerRatio of the
// other side's, and by at least fewerGap (a few events cut at each end
// are not a difference).
const (
	fewerRatio = 0.75
	fewerGap   = 20
)

// CheckActivity gives the sides that failed, base first, and a warning
// about slices in lockstep that neither side completed a statement in
// without one of them being stuck (statements longer than a slice). A
// side fails with rounds that completed nothing while the other side
// completed statements, with calls that had no reply when the other's all
// had one, with the last slices in lockstep empty on both
// sides while its statements ran on until the end, with a run that
// completed nothing in its last stuckMin or more while its statements ran
// on until cut (and the other side's runs did not end so), with lost
// connections when the other lost none, or, in lockstep, with markedly
// fewer statements completed than the other. Rounds of whole runs may complete
// fewer statements on a slower server; only slices in lockstep must
// complete the same.
func CheckActivity(a Activity) ([]SideFailure, error) {
	acts := [2][]RoundActivity{a.Base, a.Candidate}
	names := [2]string{results.SideBase, results.SideCandidate}
	unit, outlast := "round", " (or its statements outlast a round)"
	if a.Sliced {
		unit, outlast = "slice", ""
	}
	var reasons [2][]string
	var empty [2][]int
	var done, lost, unanswered [2]int64
	for s := range acts {
		for k, r := range acts[s] {
			if r.Completed == 0 {
				empty[s] = append(empty[s], k+1)
			}
		}
		done[s] = total(acts[s], func(r RoundActivity) int64 { return r.Completed })
		lost[s] = total(acts[s], func(r RoundActivity) int64 { return r.ConnLost })
		unanswered[s] = total(acts[s], func(r RoundActivity) int64 { return r.Unanswered })
	}
	for s := range acts {
		o := 1 - s
		idle := empty[s]
		if a.Sliced {
			idle = without(empty[s], empty[o]) // the other side ran alone
		}
		if len(idle) > 0 && done[s]+done[o] > 0 {
			reasons[s] = append(reasons[s], fmt.Sprintf("it completed no statement in %s %s of %d while the %s did: its server stopped answering, "+
				"or its connections were lost%s", unit+plural(len(idle)), spans(idle), len(acts[s]), names[o], outlast))
		}
	}
	for s := range acts {
		k, stuck := stuckAtEnd(acts[s])
		if _, other := stuckAtEnd(acts[1-s]); stuck >= int64(stuckMin) && other < stuck/2 && !slices.Contains(empty[s], k) {
			reasons[s] = append(reasons[s], fmt.Sprintf("nothing completed in the last %s of %s %d of %d, while %d of its statements ran on until cut at the end, "+
				"the longest for %s: its server stopped answering (or its statements run that long)",
				time.Duration(acts[s][k-1].IdleAtEndNs).Round(100*time.Millisecond), unit, k, len(acts[s]), acts[s][k-1].Cut,
				time.Duration(acts[s][k-1].LongestCutNs).Round(100*time.Millisecond)))
		}
	}
	for s := range acts {
		if o := 1 - s; unanswered[s] > 0 && unanswered[o] == 0 {
			reasons[s] = append(reasons[s], fmt.Sprintf("%d of its calls had no reply, even to KILL QUERY, and their connections were cut: "+
				"its server stopped answering", unanswered[s]))
		}
	}
	for s := range acts {
		if o := 1 - s; lost[s] > 0 && lost[o] == 0 {
			reasons[s] = append(reasons[s], fmt.Sprintf("%d of its statements failed with a lost connection, none of the %s's", lost[s], names[o]))
		}
	}
	if a.Sliced {
		for s := range acts {
			if o := 1 - s; float64(done[s]) < fewerRatio*float64(done[o]) && done[o]-done[s] >= fewerGap {
				reasons[s] = append(reasons[s], fmt.Sprintf("it completed %d statements taking turns with the %s, which completed %d", done[s], names[o], done[o]))
			}
		}
	}
	var warning error
	if both := shared(empty[0], empty[1]); a.Sliced && len(both) > 0 {
		n := max(len(acts[0]), len(acts[1]))
		where := fmt.Sprintf("%s %s of %d", unit+plural(len(both)), spans(both), n)
		trailing := trailingRun(both, n)
		switch s, failed := stuckSide(acts), failedAlone(reasons); {
		case s >= 0 && trailing > 0 && maxOf(acts[s], func(r RoundActivity) int64 { return r.LongestCutNs }) >= int64(trailing)*a.SliceNs:
			reasons[s] = append(reasons[s], fmt.Sprintf("neither side completed a statement in %s, the %s waiting for its turn, "+
				"and %d of its statements were still running when the run ended, the longest for %s: its server stopped answering",
				where, names[1-s], total(acts[s], func(r RoundActivity) int64 { return r.Cut }),
				time.Duration(maxOf(acts[s], func(r RoundActivity) int64 { return r.LongestCutNs })).Round(100*time.Millisecond)))
		case failed >= 0:
			// The side that failed held the other up, waiting for its
			// turn (reconnecting, or without a reply).
			reasons[failed] = append(reasons[failed], fmt.Sprintf("neither side completed a statement in %s, the %s waiting for its turn", where, names[1-failed]))
		default:
			warning = &IdleSlices{Slices: both, Of: n}
		}
	}
	var out []SideFailure
	for s, rs := range reasons {
		if len(rs) > 0 {
			out = append(out, SideFailure{Side: names[s], Reason: strings.Join(rs, "; ")})
		}
	}
	return out, warning
}

// failedAlone is the one side with reasons to fail, -1 when neither or
// both have.
func failedAlone(reasons [2][]string) int {
	switch {
	case len(reasons[0]) > 0 && len(reasons[1]) == 0:
		return 0
	case len(reasons[1]) > 0 && len(reasons[0]) == 0:
		return 1
	}
	return -1
}

// trailingRun is how many of the rounds ks (sorted) are the last ones of
// n, in a row.
func trailingRun(ks []int, n int) int {
	k := 0
	for i := len(ks) - 1; i >= 0 && ks[i] == n-k; i-- {
		k++
	}
	return k
}

// stuckAtEnd is the round (from 1) whose run ended the longest after
// anything completed while its statements ran on until cut, and how long
// that was (0, 0 when none).
func stuckAtEnd(rs []RoundActivity) (round int, ns int64) {
	for k, r := range rs {
		if r.Cut == 0 {
			continue
		}
		if v := min(r.IdleAtEndNs, r.LongestCutNs); v > ns {
			round, ns = k+1, v
		}
	}
	return round, ns
}

// stuckSide is the side whose statements still ran at the end for longer
// than the other's (-1 when neither had any cut): in lockstep, the one the
// other waited for.
func stuckSide(acts [2][]RoundActivity) int {
	longest := func(s int) int64 { return maxOf(acts[s], func(r RoundActivity) int64 { return r.LongestCutNs }) }
	switch b, c := longest(0), longest(1); {
	case b == 0 && c == 0:
		return -1
	case c >= b:
		return 1
	default:
		return 0
	}
}

func total(rs []RoundActivity, f func(RoundActivity) int64) int64 {
	n := int64(0)
	for _, r := range rs {
		n += f(r)
	}
	return n
}

func maxOf(rs []RoundActivity, f func(RoundActivity) int64) int64 {
	n := int64(0)
	for _, r := range rs {
		n = max(n, f(r))
	}
	return n
}

// without is the numbers of a not in b; shared those in both.
func without(a, b []int) []int {
	var out []int
	for _, k := range a {
		if !slices.Contains(b, k) {
			out = append(out, k)
		}
	}
	return out
}

func shared(a, b []int) []int {
	var out []int
	for _, k := range a {
		if slices.Contains(b, k) {
			out = append(out, k)
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// spans writes sorted round numbers as runs: 1, 3-5.
func spans(ks []int) string {
	var parts []string
	for i := 0; i < len(ks); {
		j := i
		for j+1 < len(ks) && ks[j+1] == ks[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ks[i]))
		} else {
			parts = append(parts, strconv.Itoa(ks[i])+"-"+strconv.Itoa(ks[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
