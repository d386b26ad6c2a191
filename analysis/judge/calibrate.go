package judge

import (
	"fmt"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/report"
)

// Calibrate measures the noise of every scenario from an A/A comparison
// (compare.Calibrate): the base and candidate sides are rounds of the same
// setup with nothing changed. The comparison's warnings (different
// options, ...) apply to the calibration too; sides that are not alike
// (compare.CheckAlike) are a *compare.NoiseError, with the comparison
// that shows it.
func Calibrate(baseDirs, candDirs []string, opt compare.Options) (*compare.Noise, *compare.Comparison, error) {
	if (len(baseDirs) < 2 && !report.InLockstep(baseDirs)) || (len(candDirs) < 2 && !report.InLockstep(candDirs)) {
		return nil, nil, fmt.Errorf("%w (got %d and %d run folders)", compare.ErrNoRounds, len(baseDirs), len(candDirs))
	}
	opt = opt.WithDefaults()
	// The calibration is made without an earlier one's floor, and of
	// sides on the same data only.
	opt.Noise, opt.AllowDifferentData = nil, false
	c, rounds, err := comparison(baseDirs, candDirs, opt)
	if err != nil {
		return nil, nil, err
	}
	n, err := compare.Calibrate(c, rounds, opt.Confidence)
	if err != nil {
		return nil, nil, err
	}
	if err := compare.CheckAlike(c); err != nil {
		return nil, c, err
	}
	return n, c, nil
}
