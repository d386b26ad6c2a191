package experiment

import (
	"fmt"
	"math"

	"github.com/joinbench/joinbench/analysis/stats"
)

// Change is a rate's change across repetitions (during/before - 1): the
// geometric mean of the repetitions' ratios, with its 95% interval (a t
// interval on the logarithms; the one value when there is one repetition).
type Change struct {
	Mean, Low, High float64
	N               int
}

// changeOf is the change from before[i] to during[i] over the
// repetitions i with a rate before.
func changeOf(before, during []float64) Change {
	var logs []float64
	for i := range min(len(before), len(during)) {
		if before[i] > 0 {
			logs = append(logs, math.Log(math.Max(during[i], 1e-9)/before[i]))
		}
	}
	switch len(logs) {
	case 0:
		return Change{}
	case 1:
		r := math.Exp(logs[0]) - 1
		return Change{Mean: r, Low: r, High: r, N: 1}
	}
	iv := stats.PairedInterval(logs, 0, 0.95)
	return Change{Mean: iv.Ratio - 1, Low: iv.Low - 1, High: iv.High - 1, N: len(logs)}
}

// String is e.g. "-19% [-23, -15]", or "-19%" for one repetition.
func (c Change) String() string {
	if c.N == 0 {
		return "no traffic"
	}
	if c.N == 1 {
		return pct(c.Mean)
	}
	return fmt.Sprintf("%s [%+.0f, %+.0f]", pct(c.Mean), 100*c.Low, 100*c.High)
}

// Drop says whether the change is a drop beyond noise: its whole interval
// below zero and its mean below -noise.
func (c Change) Drop(noise float64) bool {
	return c.N > 0 && c.High < 0 && c.Mean < -noise
}

// minNoise is the smallest noise bound a verdict uses: a few repetitions
// of windows that agree by chance do not make a 1% change real.
const minNoise = 0.03

// noiseBound is how far two quiet windows with nothing between them (an
// A/A pair per repetition) can differ: the outer end of their change's
// 95% interval, the same statistic as the change judged, minNoise at
// least.
func noiseBound(first, second []float64) float64 {
	aa := changeOf(first, second)
	if aa.N == 0 {
		return minNoise
	}
	return math.Max(minNoise, math.Max(math.Abs(aa.Low), math.Abs(aa.High)))
}

func pct(f float64) string { return fmt.Sprintf("%+.0f%%", 100*f) }

// share is a fraction as a percentage without sign.
func share(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
