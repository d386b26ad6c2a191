package work

import (
	"hash/fnv"
	"math"
	"math/bits"
	"time"
)

// Sampler picks the executions whose work is measured from where they are
// in the run and nothing else (not the time, not the load), so that two
// runs with the same seed and options sample the same executions, which
// ran with the same values: the first First events of every thread, and of
// the others those whose position hashes to 0 modulo the period. Periods
// are powers of two, so the executions sampled at a period are a subset of
// those sampled at any shorter one: two runs that sampled at different
// periods (the period follows a sample's cost, see Period) still share
// every execution the sparser one sampled that both ran.
type Sampler struct {
	seed  uint64
	first int64
}

// NewSampler returns the sampler of a run with the given seed that samples
// the first first events of every thread.
func NewSampler(seed uint64, first int64) Sampler { return Sampler{seed: seed, first: first} }

// ScenarioKey is the number a scenario's name gives the sampler's hash:
// computed once per scenario, not per execution.
func ScenarioKey(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// Sampled reports whether the statement seq of event (numbered from 0 in
// the thread) of a scenario (ScenarioKey) is sampled at the period, a power
// of two (1 samples every execution).
func (s Sampler) Sampled(scenario uint64, thread int32, event int64, seq int32, period uint64) bool {
	if event < s.first {
		return true
	}
	h := mix(s.seed ^ scenario)
	h = mix(h ^ uint64(uint32(thread)))
	h = mix(h ^ uint64(event))
	h = mix(h ^ uint64(uint32(seq)))
	return h&(period-1) == 0
}

// mix is splitmix64's finalizer: every input bit moves every output bit.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// MaxPeriod is the longest period: even the cheapest statement gets a
// sample now and then.
const MaxPeriod = 1 << 16

// Period is the shortest sampling period (a power of two) at which samples
// cost at most budget (a fraction, e.g. 0.01) of the executions' time: a
// sample costing sample every period executions of exec each.
func Period(sample, exec time.Duration, budget float64) uint64 {
	if sample <= 0 {
		return 1
	}
	if exec <= 0 || budget <= 0 {
		return MaxPeriod
	}
	n := float64(sample) / (budget * float64(exec))
	if n <= 1 {
		return 1
	}
	if n >= MaxPeriod {
		return MaxPeriod
	}
	return 1 << bits.Len64(uint64(math.Ceil(n))-1)
}
