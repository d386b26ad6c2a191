package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"time"

	"github.com/joinbench/joinbench/replay/stats"
)

// A calibration measures how much each scenario varies between rounds on
// one setup (machine, servers, data, threads, round length) when nothing
// changes: an A/A comparison, both sides the same server or two alike.
// Compare uses it two ways: as a floor on the spread of per-round
// statistics (a few rounds may agree by chance), and to call a scenario
// "too noisy to judge" when, with the rounds at hand, its A/A noise alone
// would exceed the threshold.

// NoiseFormat is the version of the calibration file format.
const NoiseFormat = 1

// Noise is a calibration file.
type Noise struct {
	Format        int       `json:"joinbench_noise"`
	Created       time.Time `json:"created"`
	ServerVersion string    `json:"server_version,omitempty"`
	BaseRuns      []string  `json:"base_run_ids"`
	CandidateRuns []string  `json:"candidate_run_ids"`
	// Confidence at which noise fractions are given (0.95: 95% of A/A
	// ratios stay within 1 ± the fraction).
	Confidence float64                  `json:"confidence"`
	Scenarios  map[string]ScenarioNoise `json:"scenarios"`
	// Overall is the noise of the geometric mean over the scenarios of
	// each round's median (the overall verdict); its P95 is not measured.
	Overall *ScenarioNoise `json:"overall,omitempty"`

	// Path is where the calibration was read from (for messages).
	Path string `json:"-"`
}

// ScenarioNoise is the A/A noise of one scenario.
type ScenarioNoise struct {
	// Rounds is the rounds, over both sides, the noise was measured on;
	// Pairs the adjacent base/candidate pairs among them.
	Rounds int `json:"rounds"`
	Pairs  int `json:"pairs,omitempty"`
	// ExecutionsPerRound is the mean of successful executions per round:
	// noise measured on rounds of another length does not apply as is.
	ExecutionsPerRound float64    `json:"executions_per_round"`
	Median             NoiseSigma `json:"median"`
	P95                NoiseSigma `json:"p95"`
	// SingleRound is the noise of one round against one round: 95% (at
	// Confidence) of such A/A median ratios lie within 1 ± SingleRound.
	SingleRound float64 `json:"single_round"`
	// MedianRatio is the A/A median ratio measured (about 1 for alike
	// sides).
	MedianRatio float64 `json:"aa_median_ratio"`
}

// NoiseSigma is the spread of a per-round statistic, on the log scale.
type NoiseSigma struct {
	// Sigma is the standard deviation of the log of the statistic between
	// rounds of one side.
	Sigma float64 `json:"sigma"`
	// SigmaPaired is the standard deviation of the log ratio of paired
	// adjacent rounds (0 when the rounds were not paired).
	SigmaPaired float64 `json:"sigma_paired,omitempty"`
}

// pairedSigma is the spread to assume for a paired log difference: the
// paired measurement, else that of two independent rounds.
func (s NoiseSigma) pairedSigma() float64 {
	if s.SigmaPaired > 0 {
		return s.SigmaPaired
	}
	return s.Sigma * math.Sqrt2
}

// Scenario returns the calibration of a scenario, or nil.
func (n *Noise) Scenario(name string) *ScenarioNoise {
	if n == nil {
		return nil
	}
	s, ok := n.Scenarios[name]
	if !ok {
		return nil
	}
	return &s
}

// ReadNoise reads a calibration file.
func ReadNoise(path string) (*Noise, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("noise file: %w", err)
	}
	var n Noise
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("noise file %s: %w", path, err)
	}
	if n.Format != NoiseFormat {
		return nil, fmt.Errorf("noise file %s: not a joinbench calibration (format %d, want %d)", path, n.Format, NoiseFormat)
	}
	n.Path = path
	return &n, nil
}

// Write stores the calibration as indented JSON.
func (n *Noise) Write(path string) error {
	b, err := json.MarshalIndent(n, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("noise file: %w", err)
	}
	return nil
}

// ErrNoRounds is returned (wrapped, with the counts) by Calibrate when a
// side has fewer than two rounds: the spread between rounds cannot be
// measured.
var ErrNoRounds = errors.New("calibration needs at least two rounds on each side (run folders, or the slices of a run in lockstep)")

// Calibrate measures the noise of every scenario from an A/A comparison:
// the base and candidate sides are rounds of the same setup with nothing
// changed. Scenarios with fewer than two usable rounds on a side are left
// out. The comparison's warnings (different options, ...) apply to the
// calibration too.
func Calibrate(baseDirs, candDirs []string, opt CompareOptions) (*Noise, *Comparison, error) {
	if (len(baseDirs) < 2 && !inLockstep(baseDirs)) || (len(candDirs) < 2 && !inLockstep(candDirs)) {
		return nil, nil, fmt.Errorf("%w (got %d and %d run folders)", ErrNoRounds, len(baseDirs), len(candDirs))
	}
	opt.defaults()
	// The calibration is made without an earlier one's floor.
	opt.Noise = nil
	c, rounds, err := compare(baseDirs, candDirs, opt)
	if err != nil {
		return nil, nil, err
	}
	if rounds == nil || len(rounds.base) < 2 || len(rounds.cand) < 2 {
		nb, nc := 0, 0
		if rounds != nil {
			nb, nc = len(rounds.base), len(rounds.cand)
		}
		return nil, nil, fmt.Errorf("%w (got %d and %d)", ErrNoRounds, nb, nc)
	}
	n := &Noise{Format: NoiseFormat, Created: time.Now().UTC().Truncate(time.Second), ServerVersion: c.Base.ServerVersion,
		BaseRuns: c.Base.RunIDs, CandidateRuns: c.Candidate.RunIDs, Confidence: opt.Confidence, Scenarios: map[string]ScenarioNoise{}}
	var judged []string
	for _, name := range slices.Sorted(maps.Keys(rounds.scen)) {
		sr := rounds.scen[name]
		if !sr.enough() {
			continue
		}
		judged = append(judged, name)
		all := append(slices.Clone(sr.base), sr.cand...)
		s := ScenarioNoise{Rounds: len(all), Pairs: len(sr.pairs), ExecutionsPerRound: float64(executionsOf(all)) / float64(len(all))}
		series := func(q float64) roundSeries {
			rs := roundSeries{base: logQuantiles(sr.base, q), cand: logQuantiles(sr.cand, q)}
			if len(sr.pairs) >= 2 {
				rs.diffs = pairedLogDiffs(sr.pairs, q)
			}
			return rs
		}
		s.Median, s.P95 = spreadOf(series(0.5)), spreadOf(series(0.95))
		s.finish(series(0.5), opt.Confidence)
		n.Scenarios[name] = s
	}
	if names, series := overallSeries(rounds, judged); len(names) >= 2 {
		s := ScenarioNoise{Rounds: len(series.base) + len(series.cand), Pairs: len(series.diffs), Median: spreadOf(series)}
		for _, r := range append(slices.Clone(rounds.base), rounds.cand...) {
			for _, name := range names {
				s.ExecutionsPerRound += float64(r.scen[name].Seen())
			}
		}
		s.ExecutionsPerRound /= float64(s.Rounds)
		s.finish(series, opt.Confidence)
		n.Overall = &s
	}
	return n, c, nil
}

// spreadOf measures the spread between rounds of a per-round statistic.
func spreadOf(rs roundSeries) NoiseSigma {
	// Pooled within sides: a constant difference between two alike
	// servers is not round-to-round noise.
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
