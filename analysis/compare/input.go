package compare

import (
	"hash/fnv"

	"github.com/joinbench/joinbench/analysis/metrics"
)

// Scenario is what the rule judges one scenario on: what each side holds
// of it, as read from its runs.
type Scenario struct {
	Name            string
	Base, Candidate Observed
	// Examples are the parameters of candidate rows whose result checksum
	// differs from the base's, by parameter key (HashStrings of the
	// parameters).
	Examples map[uint64][]string
	// CheckResults is false when result checksums are not compared (the
	// runs modified data).
	CheckResults bool
	// Rounds are the scenario's per-round samples; nil when the sides were
	// not read as rounds.
	Rounds *ScenarioRounds
	// Work are its paired work samples (PairWork); nil when work is not
	// compared (Comparison.WorkSkipped says why) or none paired.
	Work *WorkPairs
}

// Observed is what one side of a comparison holds of a scenario.
type Observed struct {
	// Metrics are its executions, nil when it has none: successful
	// latencies, errors by code. The rule closes them.
	Metrics *metrics.Metrics
	// Plans counts successful executions by plan hash; Templates are the
	// hashes of the statement texts its executions ran.
	Plans     map[string]int64
	Templates map[string]bool
	// Checksums are the result checksums seen, by parameter key.
	Checksums map[uint64]ResultSum
	// Cut are its statements cut at the end of a run or round, nil when
	// none: not executions, but evidence of how slow it was.
	Cut *Cut
	// Listed: the side's run.json lists the scenario among those it ran.
	Listed bool
	// NotReached says, for a scenario listed with no row at all, which
	// scenarios ahead of it in the side's events stalled them (their
	// statements were cut at the end); "" otherwise.
	NotReached string
	// PlanText returns the readable form of one of its plans ("" when the
	// side's plans.parquet lacks it); nil when it has none.
	PlanText func(hash string) string
	// Limit is the row count of the LIMIT that ends its statement (0:
	// none).
	Limit int64
	// WarningsCounted: every run of the side counted each statement's
	// warnings (results.Run.WarningsCounted), so Metrics.Warned holds.
	WarningsCounted bool
}

// ResultSum is a result checksum (hashed; 0 when it varied within the
// run, so that it is not compared) and the rows it covers.
type ResultSum struct {
	Hash uint64
	Rows int64
}

// Cut are a scenario's statements cut at the end of a run or round: a
// censored observation, at least as slow as they had run.
type Cut struct {
	N         int64   // statements cut
	LongestNs int64   // the longest time one had run
	Ran       []int64 // how long each had run (not all of them past a bound)
}

// HashStrings hashes strings (FNV-1a, each followed by a zero byte; never
// 0): the key of a parameter set among result checksums, and the seed of a
// scenario's draws.
func HashStrings(ss ...string) uint64 {
	h := fnv.New64a()
	for _, s := range ss {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	v := h.Sum64()
	if v == 0 {
		v = 1
	}
	return v
}
