package report

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/stats"
	"github.com/joinbench/joinbench/results"
)

// A side of a comparison given as several run folders is read as several
// rounds (replicates): every run folder is one round. Whole runs on a
// shared machine drift by up to about 30% against each other
// (bench/README.md, "Verdicts on a noisy machine"), far more than the
// noise between executions of one run suggests, so verdicts over rounds
// are drawn from the spread of per-round statistics (analysis/compare), not
// from the executions pooled as if they were independent.

// roundSampleCap bounds the latencies kept per round and scenario: enough
// for a per-round p99, little memory over many rounds.
const roundSampleCap = 4000

// round is one run folder of a side.
type round struct {
	dir   string
	runID string
	rep   *results.Replicate // nil unless the run was made as a round (joinbench ab)
	scen  map[string]*roundSample
	act   compare.RoundActivity // every statement it completed or had cut, whatever the scenario
}

// roundSample keeps a uniform sample of one scenario's successful
// latencies in one round, and their count (seen).
type roundSample = stats.Reservoir

// roundScan is what a round reads of each statement of its run: the
// latency of every successful execution by scenario (code 0), the code of
// every other, and how long each statement cut at the end had run.
type roundScan struct {
	execution func(scenario string, startNs, latencyNs int64, code int32)
	cut       func(startNs, ranNs int64)
}

// scanRound passes every statement of a run to s, in file order, reading
// by columns; tests set it to the row-by-row reading it must agree with.
var scanRound = func(dir string, s roundScan) error {
	_, err := results.ScanExecutionColumns(dir, nil, results.ColumnScan{SkipTemplates: true, SkipRows: true}, func(c *results.ExecutionColumns) error {
		for i, code := range c.ErrorCode {
			s.execution(c.Scenario.Values[c.Scenario.Index[i]], c.StartNs[i], c.LatencyNs[i], code)
		}
		for _, ct := range c.Cut {
			s.cut(ct.StartNs, ct.RanNs)
		}
		return nil
	})
	return err
}

// readRounds reads each run folder as one round, or, for a run in
// lockstep with the other side's (Replicate.Slice), as the rounds of its
// time slices. Problems with the files were already reported when the
// side was read, so they are not repeated.
func readRounds(dirs []string, seed uint64) ([]*round, error) {
	var out []*round
	for i, d := range dirs {
		base := round{dir: d, runID: results.RunIDFromDir(d)}
		var sliced *results.Replicate
		var startNs, endNs, lastNs, unanswered int64
		n := 1
		if info := results.ReadRunInfo(d, nil); info != nil {
			if info.RunID != "" {
				base.runID = info.RunID
			}
			if !info.End.IsZero() {
				endNs = info.End.UnixNano()
			}
			unanswered = info.Unanswered
			base.rep = info.Replicate
			if rep := info.Replicate; rep != nil && rep.Slice > 0 && rep.Rounds > 0 && !info.Start.IsZero() {
				// checkRunFile bounded the slices when the side was read;
				// those of an interrupted run that never began are none.
				sliced, startNs, n = rep, info.Start.UnixNano(), min(slicesBegun(info), MaxRounds)
			}
		}
		rounds := []*round{&base}
		if sliced != nil {
			rounds = make([]*round, n)
			for k := range rounds {
				r := base
				rep := *sliced
				rep.Round, rep.Slice = k+1, 0
				r.rep, r.runID = &rep, fmt.Sprintf("%s (slice %d)", base.runID, k+1)
				rounds[k] = &r
			}
		}
		for _, r := range rounds {
			r.scen = map[string]*roundSample{}
		}
		roundOf := func(start int64) int {
			if sliced == nil {
				return 0
			}
			return min(sliced.SliceOf(start, startNs), n) - 1
		}
		err := scanRound(d, roundScan{
			execution: func(scenario string, start, latencyNs int64, code int32) {
				k := roundOf(start)
				r := rounds[k]
				r.act.Add(code)
				lastNs = max(lastNs, start+latencyNs)
				if code != 0 {
					return
				}
				s := r.scen[scenario]
				if s == nil {
					s = stats.NewReservoir(roundSampleCap, seed^compare.HashStrings(scenario)^uint64(i)*0x9e3779b97f4a7c15^uint64(k)<<32)
					r.scen[strings.Clone(scenario)] = s
				}
				s.Add(max(latencyNs, 0))
			},
			cut: func(start, ranNs int64) { rounds[roundOf(start)].act.AddCut(ranNs) },
		})
		if err != nil {
			return nil, err
		}
		if endNs > 0 && lastNs > 0 {
			rounds[len(rounds)-1].act.IdleAtEndNs = max(endNs-lastNs, 0)
		}
		rounds[len(rounds)-1].act.Unanswered = unanswered
		for _, r := range rounds {
			for _, s := range r.scen {
				s.Sorted()
			}
		}
		out = append(out, rounds...)
	}
	return out, nil
}

// InLockstep says whether one of dirs is a run in lockstep, which holds
// several rounds.
func InLockstep(dirs []string) bool {
	for _, d := range dirs {
		if info := results.ReadRunInfo(d, nil); info != nil && info.Replicate != nil && info.Replicate.Slice > 0 {
			return true
		}
	}
	return false
}

// roundsOf gathers a scenario's rounds from both sides: those with at
// least compare.MinRoundSamples successful executions, paired by round
// number when paired.
func roundsOf(name string, base, cand []*round, paired bool) *compare.ScenarioRounds {
	sr := &compare.ScenarioRounds{}
	pick := func(rs []*round) []*roundSample {
		var out []*roundSample
		for _, r := range rs {
			if s := r.scen[name]; s != nil && s.Len() >= compare.MinRoundSamples {
				out = append(out, s)
			}
		}
		return out
	}
	sr.Base, sr.Candidate = pick(base), pick(cand)
	if paired {
		byRound := map[int]*roundSample{}
		for _, r := range base {
			if s := r.scen[name]; s != nil && s.Len() >= compare.MinRoundSamples {
				byRound[r.rep.Round] = s
			}
		}
		for _, r := range cand {
			s := r.scen[name]
			if b := byRound[r.rep.Round]; b != nil && s != nil && s.Len() >= compare.MinRoundSamples {
				sr.Pairs = append(sr.Pairs, [2]*roundSample{b, s})
			}
		}
	}
	return sr
}

// commonSeries returns the series id when every round of both sides is a
// round of that one series, on the side it claims, with distinct round
// numbers; otherwise "" (rounds cannot be paired).
func commonSeries(base, cand []*round) string {
	series := ""
	for i, side := range [][]*round{base, cand} {
		want := results.SideBase
		if i == 1 {
			want = results.SideCandidate
		}
		seen := map[int]bool{}
		for _, r := range side {
			if r.rep == nil || r.rep.Series == "" || r.rep.Side != want || seen[r.rep.Round] {
				return ""
			}
			if series == "" {
				series = r.rep.Series
			} else if r.rep.Series != series {
				return ""
			}
			seen[r.rep.Round] = true
		}
	}
	return series
}

// ReadRounds reads every run folder of both sides as a round when a
// side has more than one (or holds a run in lockstep), and gathers each
// scenario's rounds; nil when both sides are a single run (the pooled
// executions are those rounds).
func ReadRounds(baseDirs, candDirs, names []string, seed uint64) (*compare.Rounds, error) {
	if len(baseDirs) < 2 && len(candDirs) < 2 && !InLockstep(baseDirs) && !InLockstep(candDirs) {
		return nil, nil
	}
	base, err := readRounds(baseDirs, seed)
	if err != nil {
		return nil, err
	}
	cand, err := readRounds(candDirs, seed)
	if err != nil {
		return nil, err
	}
	out := &compare.Rounds{Base: asRounds(base), Candidate: asRounds(cand), Paired: commonSeries(base, cand) != "",
		Scenarios: map[string]*compare.ScenarioRounds{},
		Activity:  compare.Activity{Base: activityOf(base), Candidate: activityOf(cand)}}
	if InLockstep(baseDirs) && InLockstep(candDirs) && len(baseDirs) == 1 && len(candDirs) == 1 {
		out.Activity.Sliced = true
		if info := results.ReadRunInfo(baseDirs[0], nil); info != nil && info.Replicate != nil {
			out.Activity.SliceNs = int64(info.Replicate.Slice)
		}
	}
	for _, n := range names {
		out.Scenarios[n] = roundsOf(n, base, cand, out.Paired)
	}
	return out, nil
}

// activityOf is what each of rs did, in order.
func activityOf(rs []*round) []compare.RoundActivity {
	out := make([]compare.RoundActivity, len(rs))
	for i, r := range rs {
		out[i] = r.act
	}
	return out
}

// asRounds are rounds as the rule takes them.
func asRounds(rs []*round) []compare.Round {
	out := make([]compare.Round, len(rs))
	for i, r := range rs {
		out[i].Samples = r.scen
		if r.rep != nil {
			out[i].Number = r.rep.Round
		}
	}
	return out
}
