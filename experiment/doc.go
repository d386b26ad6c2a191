// Package experiment owns the lessons: one command each (joinbench
// experiment LESSON), which prepares what the lesson needs on a running
// sandbox, makes its runs with their actions spaced apart by quiet
// windows, measures every action against the quiet window before it
// (report.ActionWindows), and writes one page: the lesson's table and a
// verdict in words, as text, markdown and HTML, the HTML page with the
// lesson's runs as pictures beside the table.
//
// The pictures are drawn from what the table is: a run's throughput per
// node and flow control, as analysis/report reads them, with the windows
// the table judged shaded (figures.go, for slow-node, ddl-methods and
// chunked-dml); the recovery's timelines (recovery_figure.go), the
// restores' phases (restore_figure.go) and hot against uniform
// (hot_uniform_figure.go), each in a file of its own beside its lesson's,
// which hooks it in a line.
//
// One file per lesson (slow-node's dose response, at several
// percentages, in dose.go; restore's MTTR model in mttr.go and its join
// by SST against IST in restore_sst.go); the page, its rendering (figures drawn with
// analysis/render/plot) and the interval of a change across repetitions
// are shared, and so is the tally (tally.go):
// how many windows (runs, restores) each page judged of how many its
// lesson planned, and the one rule by which a lesson cut short (Ctrl-C,
// SIGTERM) pages what it measured without a verdict.
//
// It must not measure anything itself from executions (analysis/report
// does), nor parse flags or print the command's usage (cmd does), nor
// start or stop sandboxes: it works on the target it is given (restore
// rebuilds a node of that sandbox, as a crash action restarts one, and
// hot-vs-uniform restarts its server with the flush method it measures
// with, sizes its buffer pool and caps its reads, each noted in the
// sandbox's ledger and undone after: hot_regime.go).
package experiment
