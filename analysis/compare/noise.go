package compare

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"time"
)

// A calibration measures how much each scenario varies between rounds on
// one setup (machine, servers, data, threads, round length) when nothing
// changes: an A/A comparison, both sides the same server or two alike.
// The rule uses it two ways: as a floor on the spread of per-round
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
	// each round's median and p95 (the overall verdict; the p95's is not
	// in calibrations made before the overall row judged it).
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

// sigma is the calibrated spread of the per-round statistic closest to
// quantile q: the p95's for the tail quantiles.
func (s *ScenarioNoise) sigma(q float64) NoiseSigma {
	if q > 0.5 {
		return s.P95
	}
	return s.Median
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
	if err := n.check(); err != nil {
		return nil, err
	}
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
