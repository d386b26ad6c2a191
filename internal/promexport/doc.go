// Package promexport serves the live state of joinbench's runs as
// Prometheus metrics (OpenMetrics or the text format, with the official
// Go client): `run --metrics-addr` and `ab --metrics-addr` start one
// Server, which every run of the command hands its live view
// (replay.Live). The metric names, their labels and their meaning are
// listed once (metrics.go); docs/metrics.md and the Grafana dashboard
// under deploy/grafana use exactly those, which tests check.
//
// A scrape reads a snapshot of each run (replay.Live.Snapshot), made of
// counters the engine keeps anyway: nothing is counted per execution here,
// and the workers never call into the Prometheus client.
//
// It must not run or change a run: it only reads what a run shows, and
// its server ends with the command (after an optional linger, so that a
// last scrape reads the final values).
package promexport
