package report

import (
	"slices"
	"time"

	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// ActionWindow is what one action of a run cost, measured against the
// quiet stretch just before it rather than against the run's start: a run
// with several actions spaced apart gives each its own baseline, so one
// action's window never holds another's aftermath.
type ActionWindow struct {
	Action int32  // as numbered in actions.parquet
	Spec   string // as given
	Kind   string
	Node   string // the node (or endpoint) of its first step
	// Quiet is the stretch before the action, from the end of the one
	// before it (or a second after the first execution) to its start.
	Quiet [2]time.Time
	// Window is from the action's start to its end, a second at least;
	// an action on several nodes spans all its steps.
	Window [2]time.Time
	// Endpoints are the run's endpoints in run.json order, then "(all)";
	// Baseline and During their successful executions per second in the
	// quiet stretch and in the window.
	Endpoints        []string
	Baseline, During []float64
	// QuietHalves are the endpoints' rates in the first and the second
	// half of the quiet stretch: two windows with nothing between them,
	// whose difference is the workload's own noise (an A/A pair).
	QuietHalves [2][]float64
	// PausedBaseline and PausedDuring are, per node, the fraction of the
	// stretch flow control paused it; nil without Galera counters.
	PausedBaseline, PausedDuring map[string]float64
	// SentDuring is, per node, the flow control messages it sent during
	// the window (wsrep_flow_control_sent): the node that could not keep
	// up, where paused shows every node waiting alike.
	SentDuring map[string]float64
	Outcome    string
}

// QuietOptions trim the quiet stretch before each action.
type QuietOptions struct {
	// Settle is left out after the previous action's end: what an action
	// leaves behind (a node catching up) is not quiet.
	Settle time.Duration
	// Lead is left out before the action's start: what an action does
	// before its row starts (the slow kind measures the node first).
	Lead time.Duration
}

// ActionWindows measures every action of the run in dir against the
// quiet stretch before it, trimmed by q; nil when the run has none.
func ActionWindows(dir string, q QuietOptions, warn func(error)) ([]ActionWindow, error) {
	w := warner{List: &[]string{}, Fn: warn}
	info := results.ReadRunInfo(dir, w.Warn)
	if info == nil {
		return nil, nil
	}
	rows, err := results.ReadActions(dir, w.Warn)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	figs, err := readEndpoints(dir, info, rows, w.Warn)
	if err != nil {
		return nil, err
	}
	wins := groupActions(rows)
	all := sumRates(info.Endpoints, figs.rates)
	quietFrom := info.Start
	if first := slices.IndexFunc(all, func(n int32) bool { return n > 0 }); first >= 0 {
		quietFrom = info.Start.Add(time.Duration(first)*rateSlot + baselineSettle)
	}
	for i := range wins {
		aw := &wins[i]
		aw.Quiet = [2]time.Time{quietFrom, aw.Window[0].Add(-q.Lead)}
		if !aw.Quiet[1].After(aw.Quiet[0]) {
			aw.Quiet[0] = aw.Quiet[1]
		}
		quietFrom = maxTime(quietFrom, aw.Window[1].Add(q.Settle))
		aw.Endpoints = stall.WithAll(info.Endpoints)
		for _, ep := range aw.Endpoints {
			rate := figs.rates[ep]
			if ep == stall.AllEndpoints {
				rate = all
			}
			aw.Baseline = append(aw.Baseline, perSecond(rate, info.Start, aw.Quiet))
			aw.During = append(aw.During, perSecond(rate, info.Start, aw.Window))
			mid := aw.Quiet[0].Add(aw.Quiet[1].Sub(aw.Quiet[0]) / 2)
			aw.QuietHalves[0] = append(aw.QuietHalves[0], perSecond(rate, info.Start, [2]time.Time{aw.Quiet[0], mid}))
			aw.QuietHalves[1] = append(aw.QuietHalves[1], perSecond(rate, info.Start, [2]time.Time{mid, aw.Quiet[1]}))
		}
		if aw.Quiet[1].After(aw.Quiet[0]) {
			if aw.PausedBaseline, err = pausedIn(dir, info, [][2]time.Time{aw.Quiet}, w); err != nil {
				return nil, err
			}
		}
		if aw.PausedDuring, err = pausedIn(dir, info, [][2]time.Time{aw.Window}, w); err != nil {
			return nil, err
		}
		if aw.SentDuring, err = counterIn(dir, info, "wsrep_flow_control_sent", aw.Window, w); err != nil {
			return nil, err
		}
	}
	return wins, nil
}

// groupActions makes one window per action from its rows (one per step),
// in the order the actions started; skipped and never-started ones are
// left out.
func groupActions(rows []results.Action) []ActionWindow {
	var out []ActionWindow
	byAction := map[int32]int{}
	for _, r := range rows {
		if r.Start.IsZero() || r.Outcome == results.ActionSkipped {
			continue
		}
		end := maxTime(r.End, r.Start.Add(minActionWindow))
		i, ok := byAction[r.Action]
		if !ok {
			node := r.Node
			if node == "" {
				node = r.Endpoint
			}
			byAction[r.Action] = len(out)
			out = append(out, ActionWindow{Action: r.Action, Spec: r.Spec, Kind: r.Kind, Node: node,
				Window: [2]time.Time{r.Start, end}, Outcome: r.Outcome})
			continue
		}
		aw := &out[i]
		aw.Window = [2]time.Time{minTime(aw.Window[0], r.Start), maxTime(aw.Window[1], end)}
		if r.Outcome != results.ActionOK {
			aw.Outcome = r.Outcome
		}
	}
	slices.SortFunc(out, func(a, b ActionWindow) int { return a.Window[0].Compare(b.Window[0]) })
	return out
}

// sumRates adds the endpoints' rates slot by slot.
func sumRates(endpoints []string, rates map[string][]int32) []int32 {
	var all []int32
	for _, ep := range endpoints {
		for i, n := range rates[ep] {
			for len(all) <= i {
				all = append(all, 0)
			}
			all[i] += n
		}
	}
	return all
}

// perSecond is rate's successful executions per second over win.
func perSecond(rate []int32, origin time.Time, win [2]time.Time) float64 {
	secs := win[1].Sub(win[0]).Seconds()
	if secs <= 0 {
		return 0
	}
	return float64(countIn(rate, origin, win[0], win[1])) / secs
}

// counterIn is, per node, how much the status counter variable grew in
// win (each interval's delta prorated by its overlap); nil when the run
// has no such counter.
func counterIn(dir string, info *results.Run, variable string, win [2]time.Time, w warner) (map[string]float64, error) {
	var sum map[string]float64
	err := results.ScanStatus(dir, w.Warn, func(s *results.Status) error {
		if s.Variable != variable || s.Interval <= 0 {
			return nil
		}
		from := s.Time.Add(-time.Duration(s.Interval * float64(time.Second)))
		if sum == nil {
			sum = map[string]float64{}
		}
		node := info.NodeName(s.Endpoint)
		sum[node] += 0 // a node that sent none is listed with 0
		if lo, hi := maxTime(from, win[0]), minTime(s.Time, win[1]); hi.After(lo) {
			sum[node] += float64(s.Delta) * hi.Sub(lo).Seconds() / s.Interval
		}
		return nil
	})
	return sum, err
}
