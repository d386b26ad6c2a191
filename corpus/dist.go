package corpus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// Defaults of the distributions' arguments.
const (
	// DefaultParetoH is the pareto distribution's h: a fraction h of the
	// range receives a fraction 1-h of the draws (0.2: 80% of draws hit
	// the first 20% of values), as sysbench's pareto does.
	DefaultParetoH = 0.2
	// DefaultZipfS is the zipf distribution's exponent (> 1); value k+1
	// is drawn with probability proportional to 1/(1+k)^s.
	DefaultZipfS = 1.1
	// DefaultHotData and DefaultHotOps are the hotspot distribution's
	// arguments: a fraction of the values (the first ones) that receives a
	// fraction of the draws, 20% and 80% by default, as YCSB's
	// hotspotdatafraction and hotspotopnfraction.
	DefaultHotData = 0.2
	DefaultHotOps  = 0.8
	// gaussSigmas is how many standard deviations of the gaussian
	// distribution the range covers on each side of its middle.
	gaussSigmas = 3
)

// dist is a parsed distribution.
type dist struct {
	name string
	h    float64 // pareto
	s    float64 // zipf

	hotData, hotOps float64 // hotspot
}

func parseDist(name string, args []string) (dist, error) {
	d := dist{name: name, h: DefaultParetoH, s: DefaultZipfS, hotData: DefaultHotData, hotOps: DefaultHotOps}
	switch name {
	case "", DistUniform, DistGaussian:
		d.name = name
		if d.name == "" {
			d.name = DistUniform
		}
		if len(args) > 0 {
			return d, fmt.Errorf("%s takes no arguments", d.name)
		}
	case DistPareto:
		if len(args) > 1 {
			return d, fmt.Errorf("pareto takes one argument, h")
		}
		if len(args) == 1 {
			h, err := strconv.ParseFloat(args[0], 64)
			if err != nil || !(h > 0 && h < 1) {
				return d, fmt.Errorf("pareto(%s): h must be a number between 0 and 1", args[0])
			}
			d.h = h
		}
	case DistZipf:
		if len(args) > 1 {
			return d, fmt.Errorf("zipf takes one argument, the exponent s")
		}
		if len(args) == 1 {
			s, err := strconv.ParseFloat(args[0], 64)
			if err != nil || !(s > 1) || s > 100 {
				return d, fmt.Errorf("zipf(%s): the exponent must be a number above 1 (and at most 100)", args[0])
			}
			d.s = s
		}
	case DistHotspot:
		if len(args) > 2 {
			return d, fmt.Errorf("hotspot takes two arguments: the hot fraction of the values, then the fraction of draws it gets")
		}
		if len(args) >= 1 {
			v, err := strconv.ParseFloat(args[0], 64)
			if err != nil || !(v > 0 && v < 1) {
				return d, fmt.Errorf("hotspot(%s): the hot fraction of the values must be a number between 0 and 1", args[0])
			}
			d.hotData = v
		}
		if len(args) == 2 {
			v, err := strconv.ParseFloat(args[1], 64)
			if err != nil || !(v >= 0 && v <= 1) {
				return d, fmt.Errorf("hotspot(%s, %s): the fraction of draws to the hot values must be a number from 0 to 1", args[0], args[1])
			}
			d.hotOps = v
		}
	default:
		return d, fmt.Errorf("unknown distribution %q", name)
	}
	return d, nil
}

// sampler draws integers in [0, n) for one parameter of one renderer.
type sampler struct {
	d    dist
	kind distKind // d.name, switched on for every draw
	n    uint64
	zipf *rand.Zipf
	exp  float64 // pareto exponent log(h)/log(1-h)
	hot  uint64  // hotspot: values [0, hot) are the hot set
}

// distKind is a distribution's name as a small integer.
type distKind uint8

const (
	distUniform distKind = iota
	distGaussian
	distPareto
	distZipf
	distHotspot
)

func newSampler(d dist, n uint64, r *rand.Rand) sampler {
	sm := sampler{d: d, n: n}
	switch d.name {
	case DistZipf:
		sm.kind = distZipf
		if n > 1 {
			sm.zipf = rand.NewZipf(r, d.s, 1, n-1)
		}
	case DistPareto:
		sm.kind = distPareto
		sm.exp = math.Log(d.h) / math.Log(1-d.h)
	case DistGaussian:
		sm.kind = distGaussian
	case DistHotspot:
		sm.kind = distHotspot
		// At least one hot and one cold value, so that both shares exist
		// on a small range.
		sm.hot = min(max(uint64(float64(n)*d.hotData), 1), max(n, 2)-1)
	}
	return sm
}

// next returns a draw in [0, n); n must be at least 1.
func (sm *sampler) next(r *rand.Rand) uint64 {
	n := sm.n
	if n <= 1 {
		return 0
	}
	switch sm.kind {
	case distGaussian:
		mid := float64(n-1) / 2
		sd := float64(n) / (2 * gaussSigmas)
		for range 16 {
			v := math.Round(mid + r.NormFloat64()*sd)
			if v >= 0 && v < float64(n) {
				return uint64(v)
			}
		}
		return uint64(mid)
	case distPareto:
		v := uint64(float64(n) * math.Pow(r.Float64(), sm.exp))
		if v >= n {
			v = n - 1
		}
		return v
	case distZipf:
		return sm.zipf.Uint64()
	case distHotspot:
		// YCSB's hotspot generator: a draw goes to the hot set with
		// probability hotOps, else to the cold rest; uniform within each.
		if r.Float64() < sm.d.hotOps {
			return r.Uint64N(sm.hot)
		}
		return sm.hot + r.Uint64N(n-sm.hot)
	}
	return r.Uint64N(n)
}
