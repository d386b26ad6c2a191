package stats

import "fmt"

// A Warning says what limits a statistic, as data: which method could not
// be used and why, with the numbers, for the caller to word and to act on
// (a verdict of insufficient data). Each is an error, so it can be wrapped
// and matched with errors.As.
type Warning interface {
	error
	warning()
}

// TooFewSamples: a side has fewer samples than a method needs.
type TooFewSamples struct {
	Need int
	Have []int64 // per side
}

func (w *TooFewSamples) Error() string {
	return fmt.Sprintf("fewer than %d samples on a side (%v)", w.Need, w.Have)
}

func (*TooFewSamples) warning() {}

// NeedSamples returns a *TooFewSamples when a side has fewer than need
// samples, nil when none does.
func NeedSamples(need int, have ...int64) *TooFewSamples {
	for _, n := range have {
		if n < int64(need) {
			return &TooFewSamples{Need: need, Have: have}
		}
	}
	return nil
}
