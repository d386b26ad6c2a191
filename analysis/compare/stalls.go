package compare

import "math"

// Verdicts of a stall comparison.
const (
	LessStall = "less stall"
	MoreStall = "more stall"
	SameStall = "no change"
	// NoTraffic is the verdict on an endpoint no client wrote through on
	// a side: there is no stall to compare.
	NoTraffic = "no traffic"
)

// StallComparison compares what the actions of two runs cost each
// endpoint: runs that differ only in how a change was made (TOI, RSU or
// pt-online-schema-change; one DELETE or chunks).
type StallComparison struct {
	Rule      string       `json:"rule"`
	Verdict   string       `json:"verdict"`
	Base      []string     `json:"base_actions"` // the specs of each side's actions
	Candidate []string     `json:"candidate_actions"`
	Endpoints []StallDelta `json:"endpoints"`
}

// StallDelta is one endpoint's stall time on both sides: the longest
// stretch without a successful write during any action, the sum of each
// action's longest stretch, and the baseline (the longest before the first
// action) that a difference must stand out of.
type StallDelta struct {
	// Endpoint is the base's; endpoints are matched in run.json order.
	// "(all)" is the cluster as a whole: no endpoint writing.
	Endpoint           string  `json:"endpoint"`
	CandidateEndpoint  string  `json:"candidate_endpoint,omitempty"`
	BaseLongestMs      float64 `json:"base_longest_ms"`
	CandidateLongestMs float64 `json:"candidate_longest_ms"`
	BaseTotalMs        float64 `json:"base_total_ms"`
	CandidateTotalMs   float64 `json:"candidate_total_ms"`
	BaseWorstMs        float64 `json:"base_worst_latency_ms"`
	CandidateWorstMs   float64 `json:"candidate_worst_latency_ms"`
	NoiseMs            float64 `json:"noise_ms"`
	Verdict            string  `json:"verdict"`
}

// stallRule says how a stall verdict is reached.
const stallRule = "per endpoint, and for (all) the endpoints together (no endpoint writing), the longest stretch without a successful write during the runs' actions; " +
	"less or more stall when the two differ by more than 20% of the larger and by more than the noise: " +
	"twice the longer baseline (the longest stretch from a second after the first write to the first action) and at least 100 ms"

// ActionCosts are what one side's actions cost, per endpoint in run.json
// order (with "(all)", the endpoints together), in milliseconds.
type ActionCosts struct {
	Endpoints []string
	Specs     []string // the actions, as given
	// Longest is the longest stretch without a successful write during
	// any action, Total the sum of each action's, Worst the worst latency
	// in them, Baseline the longest before the first action.
	Longest, Total, Worst, Baseline []float64
	// NoTraffic marks the endpoints no client wrote through.
	NoTraffic []bool
}

// Stalls compares what the actions of a base and a candidate run cost each
// endpoint. Endpoints are matched in order: when the runs have different
// numbers, the first ones are, and a warning (*EndpointsDiffer) says so.
func Stalls(b, c *ActionCosts) (sc *StallComparison, warnings []error) {
	sc = &StallComparison{Rule: stallRule, Base: b.Specs, Candidate: c.Specs, Verdict: SameStall}
	if len(b.Endpoints) != len(c.Endpoints) {
		warnings = append(warnings, &EndpointsDiffer{Base: len(b.Endpoints), Candidate: len(c.Endpoints),
			Compared: min(len(b.Endpoints), len(c.Endpoints))})
	}
	less, more := false, false
	for i := range min(len(b.Endpoints), len(c.Endpoints)) {
		d := stallDelta(b, c, i)
		switch d.Verdict {
		case LessStall:
			less = true
		case MoreStall:
			more = true
		}
		sc.Endpoints = append(sc.Endpoints, d)
	}
	switch {
	case more && less:
		sc.Verdict = "mixed: " + MoreStall + " on some endpoints, " + LessStall + " on others"
	case more:
		sc.Verdict = MoreStall
	case less:
		sc.Verdict = LessStall
	}
	return sc, warnings
}

// stallDelta compares the i-th endpoint of both sides.
func stallDelta(b, c *ActionCosts, i int) StallDelta {
	d := StallDelta{Endpoint: b.Endpoints[i], BaseLongestMs: b.Longest[i], CandidateLongestMs: c.Longest[i],
		BaseTotalMs: b.Total[i], CandidateTotalMs: c.Total[i], BaseWorstMs: b.Worst[i], CandidateWorstMs: c.Worst[i],
		NoiseMs: math.Max(100, 2*math.Max(b.Baseline[i], c.Baseline[i])), Verdict: SameStall}
	if c.Endpoints[i] != b.Endpoints[i] {
		d.CandidateEndpoint = c.Endpoints[i]
	}
	switch bn, cn := i < len(b.NoTraffic) && b.NoTraffic[i], i < len(c.NoTraffic) && c.NoTraffic[i]; {
	case bn && cn:
		d.Verdict = NoTraffic
		return d
	case bn:
		d.Verdict = NoTraffic + " in base"
		return d
	case cn:
		d.Verdict = NoTraffic + " in candidate"
		return d
	}
	diff := d.CandidateLongestMs - d.BaseLongestMs
	if math.Abs(diff) > d.NoiseMs && math.Abs(diff) > 0.2*math.Max(d.BaseLongestMs, d.CandidateLongestMs) {
		if diff < 0 {
			d.Verdict = LessStall
		} else {
			d.Verdict = MoreStall
		}
	}
	return d
}
