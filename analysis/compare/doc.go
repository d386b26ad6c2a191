// Package compare is the comparison rule: given what the base and the
// candidate side each measured of every scenario (typed inputs: the
// executions' metrics, plans, statement texts, result checksums,
// statements cut at the end, per-round samples), it gives each scenario a
// verdict (regression, improvement, no change, too noisy to judge, wrong
// results, insufficient data, only on one side) with the intervals and
// the reasons behind it, judges all scenarios together (the overall row),
// compares what the runs' actions cost each endpoint (and, when the runs
// differ by their actions, judges the methods: methods.go), and says
// whether the comparison passes. Before any verdict counts, it checks that
// both sides measured their servers: the same data (SameDataset), and
// sides whose server stopped answering, lost its connections or completed
// markedly fewer statements fail whatever their verdicts (CheckActivity).
// A calibration (A/A rounds) measures each scenario's noise on a setup for
// later comparisons; it is made of alike sides only and checked when read
// and used (noisecheck.go).
//
// Over rounds, the intervals come from the spread of per-round statistics
// (paired when the rounds were interleaved, Welch otherwise), made
// simultaneous over the scenarios; a single round falls back to a
// bootstrap over the pooled executions with a noise floor. The statistics
// themselves are analysis/stats'. What limits a comparison is data: typed
// warnings (warnings.go) the caller words and lists.
//
// The steps of the verdict rule, in the order they apply, are Steps
// (rule.go): compare --help, every output's Rule line and docs/compare.md
// are generated from them, and verdict_test.go has a case for each.
//
// It must not read results or files other than a calibration (analysis/judge
// has analysis/report collect the sides and calls it), nor render (analysis/render does), nor
// talk to a server.
package compare
