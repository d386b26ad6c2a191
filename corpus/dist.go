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
	// gaussSigmas is how many standard deviations of the gaussian
	// distribution the range covers on each side of its middle.
	gaussSigmas = 3
)

// dist is a parsed distribution.
type dist struct {
	name string
	h    float64 // pareto
	s    float64 // zipf
}

func parseDist(name string, args []string) (dist, error) {
	d := dist{name: name, h: DefaultParetoH, s: DefaultZipfS}
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
}

// distKind is a distribution's name as a small integer.
type distKind uint8

const (
	distUniform distKind = iota
	distGaussian
	distPareto
	distZipf
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
	}
	return r.Uint64N(n)
}
