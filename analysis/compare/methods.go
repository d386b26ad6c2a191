package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// Two runs whose actions differ (a TOI ALTER against a rolling RSU one,
// one DELETE against its chunks) compare methods: what matters is what
// each method cost the workload while it ran, measured in each run against
// that run's own baseline before its first action, not the whole-run
// latency of two separate runs, which drift against each other by more
// than the methods differ.

// Verdicts of a method comparison.
const (
	LessLoss   = "less throughput loss"
	MoreLoss   = "more throughput loss"
	CostsLess  = "the candidate's actions cost the workload less"
	CostsMore  = "the candidate's actions cost the workload more"
	CostsMixed = "mixed"
)

// MethodSide is what one side's actions cost, per endpoint in run.json
// order and "(all)" (the endpoints together), and per node.
type MethodSide struct {
	Specs     []string // the actions, as given
	Endpoints []string
	// Baseline is the successful executions per second from a second
	// after the first to the first action, BaselineCV the coefficient of
	// variation of its per-second rate; Window the successful executions
	// per second during the actions (each from its start to its end, a
	// second at least), over WindowSeconds.
	Baseline, BaselineCV, Window []float64
	WindowSeconds                float64
	// Paused is, per node, the fraction of the actions' time it was
	// paused by flow control (wsrep_flow_control_paused_ns); nil without
	// Galera counters.
	Paused map[string]float64
}

// MethodComparison compares what the actions of two runs cost.
type MethodComparison struct {
	Rule      string   `json:"rule"`
	Verdict   string   `json:"verdict"`
	Base      []string `json:"base_actions"`
	Candidate []string `json:"candidate_actions"`
	// Throughput is, per endpoint and for (all), the successful
	// executions per second during the actions as a fraction of the
	// baseline before them, on each side.
	Throughput []ThroughputDelta `json:"throughput"`
	// FlowControl is, per node, the fraction of the actions' time it was
	// paused by flow control on each side.
	FlowControl []PausedDelta `json:"flow_control,omitempty"`
	// Stall is the stall comparison's verdict (Comparison.Stalls).
	Stall string `json:"stall,omitempty"`
}

// ThroughputDelta is one endpoint's throughput during the actions, as a
// fraction of its baseline, on both sides.
type ThroughputDelta struct {
	Endpoint          string  `json:"endpoint"`
	BaseFraction      float64 `json:"base_fraction"`
	CandidateFraction float64 `json:"candidate_fraction"`
	// BaseLost and CandidateLost are the executions the actions cost: at
	// the baseline's rate over their time, less those that succeeded.
	BaseLost      float64 `json:"base_lost"`
	CandidateLost float64 `json:"candidate_lost"`
	Noise         float64 `json:"noise"`
	Verdict       string  `json:"verdict"`
}

// PausedDelta is one node's flow-control paused fraction during the
// actions on both sides.
type PausedDelta struct {
	Node      string  `json:"node"`
	Base      float64 `json:"base"`
	Candidate float64 `json:"candidate"`
}

// minThroughputNoise is the smallest difference of throughput fractions
// that counts: the workload's own rate moves by a few percent between
// stretches of a run.
const minThroughputNoise = 0.05

// methodRule says how a method verdict is reached.
const methodRule = "the runs differ by their actions, so what is judged is what each run's actions cost its own workload, not the whole-run latency of two separate runs: " +
	"per endpoint, and for (all) the endpoints together, the successful executions per second during the actions (each from its start to its end, a second at least) " +
	"as a fraction of the run's baseline (from a second after its first execution to its first action); less or more throughput loss when the candidate's fraction " +
	"differs from the base's by more than the noise (twice the combined standard error of the two windows' means, from the baselines' per-second variation, and at least 5 points); " +
	"with the stall verdict: the candidate's actions cost less (or more) when the throughput and the stall verdicts agree or one of them finds no change, mixed when they disagree; " +
	"flow control (the fraction of the actions' time each node was paused) is shown, not judged"

// DifferentActions reports whether two runs' actions differ, each run
// having some: their comparison is one of methods.
func DifferentActions(base, cand []string) bool {
	return len(base) > 0 && len(cand) > 0 && !slices.Equal(base, cand)
}

// Methods compares what the actions of a base and a candidate run cost
// (stall: the stall comparison's verdict, "" without one). Endpoints are
// matched in order, as for stalls.
func Methods(b, c *MethodSide, stall string) *MethodComparison {
	mc := &MethodComparison{Rule: methodRule, Base: b.Specs, Candidate: c.Specs, Stall: stall}
	less, more := false, false
	for i := range min(len(b.Endpoints), len(c.Endpoints)) {
		d := throughputDelta(b, c, i)
		switch d.Verdict {
		case LessLoss:
			less = true
		case MoreLoss:
			more = true
		}
		mc.Throughput = append(mc.Throughput, d)
	}
	switch stall {
	case LessStall:
		less = true
	case MoreStall:
		more = true
	case SameStall, "":
	default: // mixed
		less, more = true, true
	}
	switch {
	case less && more:
		mc.Verdict = CostsMixed
	case less:
		mc.Verdict = CostsLess
	case more:
		mc.Verdict = CostsMore
	default:
		mc.Verdict = SameStall
	}
	nodes := map[string]bool{}
	for _, m := range []map[string]float64{b.Paused, c.Paused} {
		for n := range m {
			nodes[n] = true
		}
	}
	for _, node := range slices.Sorted(maps.Keys(nodes)) {
		mc.FlowControl = append(mc.FlowControl, PausedDelta{Node: node, Base: b.Paused[node], Candidate: c.Paused[node]})
	}
	return mc
}

// throughputDelta compares the i-th endpoint of both sides.
func throughputDelta(b, c *MethodSide, i int) ThroughputDelta {
	d := ThroughputDelta{Endpoint: b.Endpoints[i], Verdict: SameStall}
	if b.Baseline[i] <= 0 || c.Baseline[i] <= 0 {
		d.Verdict = NoTraffic
		return d
	}
	d.BaseFraction, d.CandidateFraction = b.Window[i]/b.Baseline[i], c.Window[i]/c.Baseline[i]
	d.BaseLost = math.Max(0, (b.Baseline[i]-b.Window[i])*b.WindowSeconds)
	d.CandidateLost = math.Max(0, (c.Baseline[i]-c.Window[i])*c.WindowSeconds)
	se := math.Sqrt(sq(b.BaselineCV[i])/math.Max(b.WindowSeconds, 1) + sq(c.BaselineCV[i])/math.Max(c.WindowSeconds, 1))
	d.Noise = math.Max(minThroughputNoise, 2*se)
	switch diff := d.CandidateFraction - d.BaseFraction; {
	case diff > d.Noise:
		d.Verdict = LessLoss
	case diff < -d.Noise:
		d.Verdict = MoreLoss
	}
	return d
}

func sq(x float64) float64 { return x * x }

// MethodText is a method comparison's verdict in a line.
func MethodText(mc *MethodComparison) string {
	out := mc.Verdict
	var parts []string
	if mc.Stall != "" {
		parts = append(parts, "stall: "+mc.Stall)
	}
	for _, d := range mc.Throughput {
		if d.Endpoint == "(all)" || len(mc.Throughput) == 1 {
			parts = append(parts, fmt.Sprintf("throughput during the actions %.0f%% → %.0f%% of the baseline (%s)",
				d.BaseFraction*100, d.CandidateFraction*100, d.Verdict))
		}
	}
	if len(parts) > 0 {
		out += " (" + strings.Join(parts, "; ") + ")"
	}
	return out
}
