package report

import (
	"math"
	"slices"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// minActionWindow is the shortest time an action is measured over: a
// change that returns at once still costs what follows it.
const minActionWindow = time.Second

// methodSide measures, for a comparison of methods, the throughput of the
// run during its actions against its baseline, and the nodes' flow
// control during them. rates are the endpoints' successful executions
// per rateSlot from the run's start (readEndpoints).
func methodSide(dir string, info *results.Run, actions []results.Action, rates map[string][]int32, w warner) (*compare.MethodSide, error) {
	windows := actionWindows(actions)
	m := &compare.MethodSide{Specs: info.Actions, Endpoints: stall.WithAll(info.Endpoints)}
	all := []int32{}
	for _, ep := range info.Endpoints {
		for i, n := range rates[ep] {
			for len(all) <= i {
				all = append(all, 0)
			}
			all[i] += n
		}
	}
	for _, ep := range m.Endpoints {
		rate := rates[ep]
		if ep == stall.AllEndpoints {
			rate = all
		}
		base, cv := baselineRate(rate, info.Start, windows)
		m.Baseline, m.BaselineCV = append(m.Baseline, base), append(m.BaselineCV, cv)
		n, secs := 0.0, 0.0
		for _, win := range windows {
			n += float64(countIn(rate, info.Start, win[0], win[1]))
			secs += win[1].Sub(win[0]).Seconds()
		}
		m.WindowSeconds = secs
		if secs > 0 {
			m.Window = append(m.Window, n/secs)
		} else {
			m.Window = append(m.Window, 0)
		}
	}
	paused, err := pausedIn(dir, info, windows, w)
	if err != nil {
		return nil, err
	}
	m.Paused = paused
	return m, nil
}

// actionWindows are the times the actions ran, each from its start to its
// end (minActionWindow at least), overlapping ones merged, in order.
func actionWindows(actions []results.Action) [][2]time.Time {
	var ws [][2]time.Time
	for _, a := range actions {
		if a.Start.IsZero() || a.Outcome == results.ActionSkipped {
			continue
		}
		end := a.End
		if end.Before(a.Start.Add(minActionWindow)) {
			end = a.Start.Add(minActionWindow)
		}
		ws = append(ws, [2]time.Time{a.Start, end})
	}
	slices.SortFunc(ws, func(a, b [2]time.Time) int { return a[0].Compare(b[0]) })
	var out [][2]time.Time
	for _, win := range ws {
		if n := len(out); n > 0 && !win[0].After(out[n-1][1]) {
			if win[1].After(out[n-1][1]) {
				out[n-1][1] = win[1]
			}
			continue
		}
		out = append(out, win)
	}
	return out
}

// baselineRate is the successful executions per second of rate from a
// second after its first to the first window, and the coefficient of
// variation of its per-second counts.
func baselineRate(rate []int32, origin time.Time, windows [][2]time.Time) (perSec, cv float64) {
	first := slices.IndexFunc(rate, func(n int32) bool { return n > 0 })
	if first < 0 || len(windows) == 0 {
		return 0, 0
	}
	from := origin.Add(time.Duration(first)*rateSlot + baselineSettle)
	to := windows[0][0]
	var perSecond []float64
	for at := from; !at.Add(time.Second).After(to); at = at.Add(time.Second) {
		perSecond = append(perSecond, float64(countIn(rate, origin, at, at.Add(time.Second))))
	}
	if len(perSecond) == 0 {
		return 0, 0
	}
	mean, sq := 0.0, 0.0
	for _, v := range perSecond {
		mean += v
	}
	mean /= float64(len(perSecond))
	for _, v := range perSecond {
		sq += (v - mean) * (v - mean)
	}
	if mean > 0 && len(perSecond) > 1 {
		cv = math.Sqrt(sq/float64(len(perSecond)-1)) / mean
	}
	return mean, cv
}

// countIn counts rate's executions in [from, to), by whole slots.
func countIn(rate []int32, origin time.Time, from, to time.Time) int64 {
	a, b := int(from.Sub(origin)/rateSlot), int(to.Sub(origin)/rateSlot)
	var n int64
	for i := max(a, 0); i < min(b, len(rate)); i++ {
		n += int64(rate[i])
	}
	return n
}

// pausedIn is, per node (its name, else its endpoint), the fraction of
// the windows' time flow control paused it: its
// wsrep_flow_control_paused_ns over the part of each interval inside a
// window. Nil when the run has no such counter.
func pausedIn(dir string, info *results.Run, windows [][2]time.Time, w warner) (map[string]float64, error) {
	var secs float64
	for _, win := range windows {
		secs += win[1].Sub(win[0]).Seconds()
	}
	var paused map[string]float64
	err := results.ScanStatus(dir, w.Warn, func(s *results.Status) error {
		if s.Variable != "wsrep_flow_control_paused_ns" || s.Interval <= 0 {
			return nil
		}
		from := s.Time.Add(-time.Duration(s.Interval * float64(time.Second)))
		var in time.Duration
		for _, win := range windows {
			if lo, hi := maxTime(from, win[0]), minTime(s.Time, win[1]); hi.After(lo) {
				in += hi.Sub(lo)
			}
		}
		if paused == nil {
			paused = map[string]float64{}
		}
		node := info.NodeName(s.Endpoint)
		paused[node] += float64(s.Delta) * in.Seconds() / s.Interval / 1e9
		return nil
	})
	if err != nil || secs == 0 {
		return nil, err
	}
	for n := range paused {
		paused[n] = min(paused[n]/secs, 1)
	}
	return paused, nil
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
