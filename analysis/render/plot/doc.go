// Package plot draws small SVG charts by hand: lines, bars on a log or
// linear axis, a second axis from 0 to 1, bands behind the data, a legend;
// forest plots of ratios; scatter plots of estimates with intervals on
// both axes beside the line y = x (scatter.go); horizontal bars cut into
// spans on one time axis, a timeline per row or a whole's phases
// stacked (spans.go).
// Axes read at round values (ticks.go: 4 to 8 ticks of 1, 2 or 5 times a
// power of ten, log axes at decades with 2 and 5 between, never in
// exponent notation), and pointing at a line chart shows its values
// (hover.go: SVG titles, no script). No library and no script, so that a
// page holding them opens offline and prints.
//
// It knows nothing of runs, reports or comparisons: it takes series of
// numbers and returns SVG text. It must not read files or choose what to
// draw (analysis/render does).
package plot
