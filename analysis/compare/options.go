package compare

// DefaultNoiseFloor is the smallest change a comparison with a single
// round on a side judges without a calibration. Whole runs on a shared
// machine drift by up to about 30% with nothing changed (bench/README.md,
// "Verdicts on a noisy machine"); a dropped index typically costs 2x or
// more.
const DefaultNoiseFloor = 0.5

// Options tune a comparison.
type Options struct {
	// Threshold is the smallest slowdown that counts (0.10 = 10%).
	Threshold float64
	// Confidence of the intervals (0.95).
	Confidence float64
	// Resamples of the bootstrap (2000).
	Resamples int
	// Seed of the bootstrap and the samples (1): same inputs and seed,
	// same output.
	Seed uint64
	// MinSamples is the fewest successful executions per side for a
	// latency verdict from pooled executions (30); over rounds, each side
	// needs two rounds with a successful execution instead.
	MinSamples int
	// NoiseFloor is the smallest change judged when a side has a single
	// round (DefaultNoiseFloor), unless Noise calibrates the scenario.
	NoiseFloor float64
	// Noise is a calibration (ReadNoise, Calibrate), or nil.
	Noise *Noise
	// Unpaired compares rounds as independent samples even when they
	// ran in adjacent pairs.
	Unpaired bool
	// AllowMissing accepts scenarios measured on one side only (the
	// corpus changed between the runs): they no longer fail the
	// comparison. A side without any execution still does.
	AllowMissing bool
	// WorkBound is the growth of a figure of work per execution that is
	// a regression (DefaultWorkBound); 1 or less (NoWork) does not judge
	// work.
	WorkBound float64
	// AllowDifferentData compares runs that ran on different data
	// (SameDataset), with a warning, instead of refusing them.
	AllowDifferentData bool
	// Warn receives problems that do not stop the comparison.
	Warn func(error)
}

// NoWork is Options.WorkBound for a comparison that does not judge work.
const NoWork = 1

// WithDefaults returns the options with every unset one at its default.
func (o Options) WithDefaults() Options {
	if o.Threshold <= 0 {
		o.Threshold = 0.10
	}
	if o.Confidence <= 0 || o.Confidence >= 1 {
		o.Confidence = 0.95
	}
	if o.Resamples <= 0 {
		o.Resamples = 2000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.MinSamples <= 0 {
		o.MinSamples = 30
	}
	if o.NoiseFloor <= 0 {
		o.NoiseFloor = DefaultNoiseFloor
	}
	if o.WorkBound == 0 {
		o.WorkBound = DefaultWorkBound
	}
	return o
}
