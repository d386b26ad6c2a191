package experiment

import "slices"

// The MTTR model fitted over several dataset sizes. One size gives each
// phase a rate alone (its bytes over its seconds), so whatever a phase
// costs at any size (a process's start, a sync, a node's stop) is scaled
// up with the data: measured at 620 MiB, the backup and the copy of a
// 1.7 GiB restore were over-predicted by 64% and 163%. Restores at two
// sizes or more separate the two: each phase's seconds are fitted as a
// fixed part plus its bytes over a rate.

// minFitSpread is how far apart (the largest over the smallest) the
// amounts of a phase must be for a fixed part to be fitted: closer, the
// fixed part is lost in the noise of the rate.
const minFitSpread = 1.5

// fitLine fits seconds = fixed + amount / rate to the points by least
// squares. ok is false, and the caller keeps the rate over the sums,
// when the amounts span less than minFitSpread, or the fit has a negative
// fixed part or no positive rate (a larger amount that took less time:
// the noise is larger than the effect of the size).
func fitLine(amounts, secs []float64) (rate, fixed float64, ok bool) {
	if len(amounts) < 2 || len(amounts) != len(secs) || slices.Min(amounts) <= 0 || slices.Max(amounts) < minFitSpread*slices.Min(amounts) {
		return 0, 0, false
	}
	n := float64(len(amounts))
	var sx, sy float64
	for i := range amounts {
		sx, sy = sx+amounts[i], sy+secs[i]
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for i := range amounts {
		dx := amounts[i] - mx
		sxx, sxy = sxx+dx*dx, sxy+dx*(secs[i]-my)
	}
	slope := sxy / sxx
	fixed = my - slope*mx
	if slope <= 0 || fixed < 0 {
		return 0, 0, false
	}
	return 1 / slope, fixed, true
}

// fitRates gives r the fixed parts of the phases that scale, fitted over
// f's restores when their data sizes span minFitSpread: the backup and
// the copy over the data size, each --use-memory's redo apply over the
// redo applied. A phase whose fit fails keeps its rate over the sums.
func fitRates(r *Rates, f restorePhases) {
	var sizes, backup, copyS []float64
	for _, m := range f.restores() {
		sizes, backup, copyS = append(sizes, float64(m.BackupBytes)), append(backup, m.BackupSeconds), append(copyS, m.CopySeconds)
	}
	if len(sizes) < 2 || slices.Min(sizes) <= 0 || slices.Max(sizes) < minFitSpread*slices.Min(sizes) {
		return
	}
	r.Sizes = [2]float64{slices.Min(sizes), slices.Max(sizes)}
	if rate, fixed, ok := fitLine(sizes, backup); ok {
		r.Backup, r.BackupFixed = rate, fixed
		r.Fitted = append(r.Fitted, "backup")
	}
	if rate, fixed, ok := fitLine(sizes, copyS); ok {
		r.Copy, r.CopyFixed = rate, fixed
		r.Fitted = append(r.Fitted, "copy")
	}
	for i, a := range r.Apply {
		var redo, secs []float64
		for _, m := range f.Restores {
			if m.UseMemory == a.UseMemory {
				redo, secs = append(redo, float64(m.RedoBytes)), append(secs, m.PrepareSeconds)
			}
		}
		if rate, fixed, ok := fitLine(redo, secs); ok {
			r.Apply[i].BytesPerSec, r.Apply[i].Fixed = rate, fixed
			r.Fitted = append(r.Fitted, "prepare "+a.UseMemory)
		}
	}
}

// mergePhases is the restores of several phases files as one, for rates
// fitted over their sizes: the table size is the first file's when they
// all agree, else 0.
func mergePhases(fs []restorePhases) restorePhases {
	if len(fs) == 0 {
		return restorePhases{Format: restorePhasesFormat}
	}
	m := fs[0]
	m.Restores = slices.Clone(m.Restores)
	for _, f := range fs[1:] {
		if f.TableSize != m.TableSize {
			m.TableSize = 0
		}
		m.Restores = append(m.Restores, f.Restores...)
	}
	return m
}
