package report

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/replay/compare"
	"github.com/joinbench/joinbench/replay/results"
	"github.com/joinbench/joinbench/replay/stats"
)

// A side of a comparison given as several run folders is read as several
// rounds (replicates): every run folder is one round. Whole runs on a
// shared machine drift by 15-25% against each other, far more than the
// noise between executions of one run suggests, so verdicts over rounds
// are drawn from the spread of per-round statistics (replay/compare), not
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
}

// roundSample keeps a uniform sample of one scenario's successful
// latencies in one round, and their count (seen).
type roundSample = stats.Reservoir

// scanSuccesses passes the scenario, start (Unix nanoseconds) and latency
// of every successful execution of a run to fn, in file order, reading by
// columns; tests set it to the row-by-row reading it must agree with.
var scanSuccesses = func(dir string, fn func(scenario string, startNs, latencyNs int64)) error {
	_, err := results.ScanExecutionColumns(dir, nil, results.ColumnScan{SkipTemplates: true, SkipRows: true}, func(c *results.ExecutionColumns) error {
		for i, code := range c.ErrorCode {
			if code == 0 {
				fn(c.Scenario.Values[c.Scenario.Index[i]], c.StartNs[i], c.LatencyNs[i])
			}
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
		var startNs int64
		if info := results.ReadRunInfo(d, nil); info != nil {
			if info.RunID != "" {
				base.runID = info.RunID
			}
			base.rep = info.Replicate
			if rep := info.Replicate; rep != nil && rep.Slice > 0 && rep.Rounds > 0 && !info.Start.IsZero() {
				sliced, startNs = rep, info.Start.UnixNano()
			}
		}
		rounds := []*round{&base}
		if sliced != nil {
			rounds = make([]*round, sliced.Rounds)
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
		err := scanSuccesses(d, func(scenario string, start, latencyNs int64) {
			k := 0
			if sliced != nil {
				k = sliced.SliceOf(start, startNs) - 1
			}
			r := rounds[k]
			s := r.scen[scenario]
			if s == nil {
				s = stats.NewReservoir(roundSampleCap, seed^compare.HashStrings(scenario)^uint64(i)*0x9e3779b97f4a7c15^uint64(k)<<32)
				r.scen[strings.Clone(scenario)] = s
			}
			s.Add(max(latencyNs, 0))
		})
		if err != nil {
			return nil, err
		}
		for _, r := range rounds {
			for _, s := range r.scen {
				s.Sorted()
			}
		}
		out = append(out, rounds...)
	}
	return out, nil
}

// inLockstep says whether one of dirs is a run in lockstep, which holds
// several rounds.
func inLockstep(dirs []string) bool {
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

// readSideRounds reads every run folder of both sides as a round when a
// side has more than one (or holds a run in lockstep), and gathers each
// scenario's rounds; nil when both sides are a single run (the pooled
// executions are those rounds).
func readSideRounds(baseDirs, candDirs, names []string, seed uint64) (*compare.Rounds, error) {
	if len(baseDirs) < 2 && len(candDirs) < 2 && !inLockstep(baseDirs) && !inLockstep(candDirs) {
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
		Scenarios: map[string]*compare.ScenarioRounds{}}
	for _, n := range names {
		out.Scenarios[n] = roundsOf(n, base, cand, out.Paired)
	}
	return out, nil
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
