// Package stats holds the statistics a comparison of runs is judged by, in
// the spirit of golang.org/x/perf's benchmath: samples (a seeded uniform
// reservoir of a stream, order statistics, nearest-rank quantiles),
// intervals of a ratio (a percentile bootstrap drawing order statistics,
// paired and Welch t intervals on the log scale), Student's t
// distribution, the two-proportion z test, and what limits a result as
// data (Warning values) for the caller to word.
//
// It knows nothing of scenarios, runs, files or output formats, and must
// not: it takes numbers and seeded generators, and gives numbers back, the
// same for the same inputs. The comparison rule built on it is
// analysis/compare's.
package stats
