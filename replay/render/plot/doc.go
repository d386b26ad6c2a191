// Package plot draws small SVG charts by hand: lines, bars on a log or
// linear axis, a second axis from 0 to 1, bands behind the data, a legend.
// No library and no script, so that a page holding them opens offline and
// prints.
//
// It knows nothing of runs, reports or comparisons: it takes series of
// numbers and returns SVG text. It must not read files or choose what to
// draw (replay/render does).
package plot
