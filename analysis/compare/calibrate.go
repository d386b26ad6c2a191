package compare

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/joinbench/joinbench/analysis/stats"
)

// ErrNoRounds is returned (wrapped, with the counts) by a calibration
// when a side has fewer than two rounds: the spread between rounds cannot
// be measured.
var ErrNoRounds = errors.New("calibration needs at least two rounds on each side (run folders, or the slices of a run in lockstep)")

// Calibrate measures the noise of every scenario from the rounds of an A/A
// comparison c: its base and candidate sides are rounds of the same setup
// with nothing changed. Scenarios with fewer than two usable rounds on a
// side are left out; the noise is given at confidence.
func Calibrate(c *Comparison, rounds *Rounds, confidence float64) (*Noise, error) {
	if rounds == nil || len(rounds.Base) < 2 || len(rounds.Candidate) < 2 {
		nb, nc := 0, 0
		if rounds != nil {
			nb, nc = len(rounds.Base), len(rounds.Candidate)
		}
		return nil, fmt.Errorf("%w (got %d and %d)", ErrNoRounds, nb, nc)
	}
	n := &Noise{Format: NoiseFormat, Created: time.Now().UTC().Truncate(time.Second), ServerVersion: c.Base.ServerVersion,
		BaseRuns: c.Base.RunIDs, CandidateRuns: c.Candidate.RunIDs, Confidence: confidence, Scenarios: map[string]ScenarioNoise{}}
	var judged []string
	for _, name := range slices.Sorted(maps.Keys(rounds.Scenarios)) {
		sr := rounds.Scenarios[name]
		if !sr.enough() {
			continue
		}
		judged = append(judged, name)
		n.Scenarios[name] = scenarioNoise(sr, confidence)
	}
	n.Overall = overallNoise(rounds, judged, confidence)
	return n, nil
}

// scenarioNoise is the noise of one scenario's rounds.
func scenarioNoise(sr *ScenarioRounds, confidence float64) ScenarioNoise {
	all := append(slices.Clone(sr.Base), sr.Candidate...)
	s := ScenarioNoise{Rounds: len(all), Pairs: len(sr.Pairs), ExecutionsPerRound: float64(executionsOf(all)) / float64(len(all))}
	s.Median, s.P95 = spreadOf(sr.seriesOf(0.5)), spreadOf(sr.seriesOf(0.95))
	s.finish(sr.seriesOf(0.5), confidence)
	return s
}

// overallNoise is the noise of the overall row over the scenarios judged,
// nil when fewer than two of them have an execution in every round.
func overallNoise(rounds *Rounds, judged []string, confidence float64) *ScenarioNoise {
	names, series := overallSeries(rounds, judged, 0.5)
	if len(names) < 2 {
		return nil
	}
	_, tail := overallSeries(rounds, judged, 0.95)
	s := ScenarioNoise{Rounds: len(series.base) + len(series.cand), Pairs: len(series.diffs), Median: spreadOf(series), P95: spreadOf(tail)}
	for _, r := range append(slices.Clone(rounds.Base), rounds.Candidate...) {
		for _, name := range names {
			s.ExecutionsPerRound += float64(r.Samples[name].Seen())
		}
	}
	s.ExecutionsPerRound /= float64(s.Rounds)
	s.finish(series, confidence)
	return &s
}

// spreadOf measures the spread between rounds of a per-round statistic:
// pooled within sides, so that a constant difference between two alike
// servers is not round-to-round noise.
func spreadOf(rs roundSeries) NoiseSigma {
	ns := NoiseSigma{Sigma: stats.PooledSD(rs.base, rs.cand)}
	if len(rs.diffs) >= 2 {
		_, vd := stats.MeanVar(rs.diffs)
		ns.SigmaPaired = math.Sqrt(vd)
	}
	return ns
}

// finish sets the single-round noise and the A/A ratio from the median's
// series.
func (s *ScenarioNoise) finish(median roundSeries, confidence float64) {
	s.SingleRound = stats.RatioNoise(s.Median.Sigma*math.Sqrt2, confidence)
	mb, _ := stats.MeanVar(median.base)
	mc, _ := stats.MeanVar(median.cand)
	s.MedianRatio = math.Exp(mc - mb)
}
