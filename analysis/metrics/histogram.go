package metrics

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are kept in HDR histograms of nanoseconds from 1 µs to one hour
// with three significant digits (0.1% resolution). The one clamping rule:
// a latency below HistogramMin counts as HistogramMin, one above
// HistogramMax as HistogramMax, so every execution that succeeded is
// counted and none is dropped.
const (
	HistogramMin    = int64(time.Microsecond)
	HistogramMax    = int64(time.Hour)
	histogramDigits = 3
)

// NewHistogram returns an empty latency histogram with the bounds and
// resolution every joinbench figure uses.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(HistogramMin, HistogramMax, histogramDigits)
}

// Clamp applies the clamping rule to a latency in nanoseconds.
func Clamp(ns int64) int64 { return min(max(ns, HistogramMin), HistogramMax) }

// Record adds a latency in nanoseconds to a histogram made by NewHistogram,
// clamped.
func Record(h *hdrhistogram.Histogram, ns int64) {
	_ = h.RecordValue(Clamp(ns)) // cannot fail once clamped
}
