package compare

import "github.com/joinbench/joinbench/analysis/stats"

// Intervals over rounds. Each round of a side gives one statistic per
// scenario (its median, p95 or p99 latency); the ratio candidate/base is
// the ratio of the geometric means of those per-round statistics, and its
// interval is a t interval on their logarithms (package stats). The spread
// between rounds holds every source of noise at once (executions within a
// round, and whatever made whole runs faster or slower), which a bootstrap
// over the pooled executions does not see.
//
// Two forms:
//   - paired: rounds of the same number on both sides ran next to each
//     other (joinbench ab interleaves them), so a drift of the machine
//     hits both alike; the interval is on the mean of the per-pair log
//     differences.
//   - Welch: rounds of the two sides are independent samples.
//
// A calibrated noise (calibrate.go) is a floor on the standard deviation:
// with few rounds the spread seen may be small by chance.

// MinRoundSamples is the fewest successful executions of a scenario for a
// round to count for that scenario. One is enough: the spread between
// rounds holds the noise of small rounds, and a candidate many times slower
// may complete only one event per thread in a round.
const MinRoundSamples = 1

// Rounds are the rounds of both sides of a comparison: each run folder is
// one, or each time slice of a run in lockstep with the other side's.
type Rounds struct {
	Base, Candidate []Round
	// Paired: every round of both sides belongs to one series (joinbench
	// ab), so rounds of the same Number ran next to each other.
	Paired bool
	// Scenarios are, per scenario, the rounds that count for it.
	Scenarios map[string]*ScenarioRounds
	// Activity is what every round did, whatever the scenario.
	Activity Activity
}

// Round is one round of a side: a sample of each scenario's successful
// latencies, sorted.
type Round struct {
	// Number is its round number in its series (0 outside a series).
	Number  int
	Samples map[string]*stats.Reservoir
}

// ScenarioRounds are the per-round samples of one scenario on both sides:
// only rounds with at least MinRoundSamples successful executions.
type ScenarioRounds struct {
	Base, Candidate []*stats.Reservoir
	// Pairs holds base and candidate samples of the same round number of
	// one series (they ran next to each other), when Rounds.Paired.
	Pairs [][2]*stats.Reservoir
}

// Of returns a scenario's rounds, nil when the sides were not read as
// rounds.
func (r *Rounds) Of(name string) *ScenarioRounds {
	if r == nil {
		return nil
	}
	return r.Scenarios[name]
}

// enough reports whether both sides have the two rounds a verdict over
// rounds needs.
func (sr *ScenarioRounds) enough() bool {
	return sr != nil && len(sr.Base) >= 2 && len(sr.Candidate) >= 2
}

// tests counts the scenarios judged over rounds (two tests each: median
// and p95) and says whether the overall row may be judged too (two such
// scenarios; it may then still not qualify, which only makes the bound
// conservative).
func (r *Rounds) tests() (scenarios int, overall bool) {
	if r == nil {
		return 0, false
	}
	for _, sr := range r.Scenarios {
		if sr.enough() {
			scenarios++
		}
	}
	return scenarios, scenarios >= 2
}

// executionsOf is the successful executions over samples.
func executionsOf(ss []*stats.Reservoir) int64 {
	n := int64(0)
	for _, s := range ss {
		n += s.Seen()
	}
	return n
}

// roundSeries is one per-round statistic on the log scale: per side, and
// per pair (candidate minus base) when the rounds pair.
type roundSeries struct {
	base, cand []float64
	diffs      []float64
}

// seriesOf is the per-round log quantile q of a scenario's rounds.
func (sr *ScenarioRounds) seriesOf(q float64) roundSeries {
	rs := roundSeries{base: logQuantiles(sr.Base, q), cand: logQuantiles(sr.Candidate, q)}
	if len(sr.Pairs) >= 2 {
		rs.diffs = pairedLogDiffs(sr.Pairs, q)
	}
	return rs
}

// logQuantiles returns the log of quantile q of each round's sample.
func logQuantiles(ss []*stats.Reservoir, q float64) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = stats.LogQuantile(s.Sorted(), q)
	}
	return out
}

// pairedLogDiffs returns, per pair, log quantile q of the candidate round
// minus that of the base round.
func pairedLogDiffs(pairs [][2]*stats.Reservoir, q float64) []float64 {
	out := make([]float64, len(pairs))
	for i, p := range pairs {
		out[i] = stats.LogQuantile(p[1].Sorted(), q) - stats.LogQuantile(p[0].Sorted(), q)
	}
	return out
}
