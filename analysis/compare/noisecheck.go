package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/analysis/stats"
)

// A calibration decides verdicts: a noise larger than the threshold makes
// a real slowdown "too noisy to judge". So a file is checked when read
// (each figure one a calibration writes), against the comparison it is
// used for (the same server, scenarios in common), and a calibration is
// written only from sides that are alike (an A/A comparison).

// MaxSigma bounds the spread of log latencies between rounds a calibration
// may hold: e^3, twenty times, between rounds of one setup is no noise
// but another setup.
const MaxSigma = 3.0

// MaxAARatio bounds the median ratio of an A/A calibration: sides further
// apart are not alike, and their "noise" would hide real changes.
const MaxAARatio = 1.25

// minAlikeRounds is the fewest rounds per side that tell sides apart from
// a drift of the machine: with two or three, a burst of load over the
// rounds of one side looks as certain as a difference of the servers.
const minAlikeRounds = 4

// NoiseError is a calibration refused: a file whose figures no
// calibration writes, one made on another server or scenarios than those
// compared, or sides that are not alike. Its message is one line.
type NoiseError struct {
	Path    string // the file, "" for one not yet written
	Problem string
}

func (e *NoiseError) Error() string {
	if e.Path == "" {
		return "calibration refused: " + e.Problem
	}
	return fmt.Sprintf("noise file %s: %s", e.Path, e.Problem)
}

// check refuses figures no calibration writes: a sigma that is negative,
// not a number or beyond MaxSigma, a confidence outside (0, 1), rounds
// fewer than two, an A/A ratio that is no ratio.
func (n *Noise) check() error {
	bad := func(format string, args ...any) error {
		return &NoiseError{Path: n.Path, Problem: fmt.Sprintf(format, args...)}
	}
	if !(n.Confidence > 0 && n.Confidence < 1) {
		return bad("confidence %v is not between 0 and 1", n.Confidence)
	}
	if len(n.Scenarios) == 0 {
		return bad("no scenario calibrated")
	}
	all := maps.Clone(n.Scenarios)
	if n.Overall != nil {
		all["(all scenarios)"] = *n.Overall
	}
	for _, name := range slices.Sorted(maps.Keys(all)) {
		s := all[name]
		for _, f := range []struct {
			what string
			v    float64
		}{{"median sigma", s.Median.Sigma}, {"median sigma_paired", s.Median.SigmaPaired}, {"p95 sigma", s.P95.Sigma}, {"p95 sigma_paired", s.P95.SigmaPaired}} {
			if !(f.v >= 0 && f.v <= MaxSigma) {
				return bad("scenario %s: %s %v is not a spread of log latencies between rounds (0 to %v)", name, f.what, f.v, MaxSigma)
			}
		}
		switch {
		case s.Rounds < 2 || s.Pairs < 0 || s.Pairs > s.Rounds:
			return bad("scenario %s: %d rounds in %d pairs: a calibration has two rounds or more", name, s.Rounds, s.Pairs)
		case !(s.ExecutionsPerRound >= 0) || math.IsInf(s.ExecutionsPerRound, 0):
			return bad("scenario %s: executions per round %v", name, s.ExecutionsPerRound)
		case !(s.SingleRound >= 0) || math.IsInf(s.SingleRound, 0):
			return bad("scenario %s: single_round %v is not a fraction", name, s.SingleRound)
		case !(s.MedianRatio > 0) || math.IsInf(s.MedianRatio, 0):
			return bad("scenario %s: aa_median_ratio %v is not a ratio", name, s.MedianRatio)
		}
	}
	return nil
}

// CheckNoise refuses a calibration for a comparison it was not made for:
// another server version than the base's, or no scenario in common with
// names (those compared). nil without a calibration.
func CheckNoise(n *Noise, c *Comparison, names []string) error {
	if n == nil {
		return nil
	}
	if v := c.Base.ServerVersion; n.ServerVersion != "" && v != "" && n.ServerVersion != v {
		return &NoiseError{Path: n.Path, Problem: fmt.Sprintf("calibrated on server %s, but the base runs %s: calibrate on this setup", n.ServerVersion, v)}
	}
	for _, name := range names {
		if n.Scenario(name) != nil {
			return nil
		}
	}
	return &NoiseError{Path: n.Path, Problem: fmt.Sprintf("calibrates none of the %d scenario(s) compared (it has %s)", len(names), strings.Join(firstKeys(n.Scenarios, 5), ", "))}
}

// CheckAlike refuses to make a calibration of the A/A comparison c when
// its sides are not alike: different server versions, a side that failed,
// or a median ratio between the sides both beyond MaxAARatio and certain
// (its interval over rounds wholly on one side of 1, with minAlikeRounds
// or more on each side): over all scenarios, or, without that row, of most
// scenarios. A ratio as far that the rounds cannot tell from 1 is noise,
// which the calibration is there to measure.
func CheckAlike(c *Comparison) error {
	var why []string
	if b, v := c.Base.ServerVersion, c.Candidate.ServerVersion; b != "" && v != "" && b != v {
		why = append(why, fmt.Sprintf("the base runs server %s, the candidate %s", b, v))
	}
	for _, f := range c.SideFailures {
		why = append(why, f.String())
	}
	if r, ok := aaShift(c); ok && min(c.Base.Rounds, c.Candidate.Rounds) >= minAlikeRounds {
		why = append(why, fmt.Sprintf("their median latencies differ by a ratio of %.2f (beyond %.2f, and beyond the noise of the rounds)", r, MaxAARatio))
	}
	if len(why) == 0 {
		return nil
	}
	return &NoiseError{Problem: "the sides are not alike (" + strings.Join(why, "; ") +
		"): a calibration measures the noise of an A/A comparison, where nothing differs between the sides"}
}

// aaShift is the median ratio between the sides of an A/A comparison when
// it is certainly beyond MaxAARatio: the overall row's, else the geometric
// mean of the scenarios' when most of them are.
func aaShift(c *Comparison) (float64, bool) {
	far := func(iv *stats.Interval) bool {
		return iv != nil && (iv.Low > 1 || iv.High < 1) && (iv.Ratio > MaxAARatio || iv.Ratio < 1/MaxAARatio)
	}
	if c.Overall != nil && c.Overall.Median != nil {
		return c.Overall.Median.Ratio, far(c.Overall.Median)
	}
	sum, n, judged := 0.0, 0, 0
	for _, s := range c.Scenarios {
		if s.Median == nil {
			continue
		}
		judged++
		if far(s.Median) {
			sum += math.Log(s.Median.Ratio)
			n++
		}
	}
	if n == 0 || 2*n <= judged {
		return 0, false
	}
	return math.Exp(sum / float64(n)), true
}

// firstKeys are up to n of m's keys, sorted, with "..." when there are
// more.
func firstKeys[V any](m map[string]V, n int) []string {
	keys := slices.Sorted(maps.Keys(m))
	if len(keys) > n {
		keys = append(keys[:n], "...")
	}
	return keys
}
