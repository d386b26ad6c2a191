package report

import (
	"maps"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/analysis/metrics"
	"github.com/joinbench/joinbench/results"
)

// NodeReport is what the statements one server served did: the node each
// connection reached (results.Execution.Node), which behind a proxy the
// endpoints do not tell.
type NodeReport struct {
	Node string `json:"node"`
	metrics.Summary
}

// nodeAcc reduces executions per node, by the reducer of the run's figures.
type nodeAcc map[string]*metrics.Metrics

func (a nodeAcc) add(e *results.Execution) {
	if e.Node == "" {
		return
	}
	m := a[e.Node]
	if m == nil {
		m = &metrics.Metrics{}
		a[strings.Clone(e.Node)] = m
	}
	var x metrics.Execution
	x.Start, x.LatencyNs, x.Rows, x.ErrorCode, x.Retries, x.CommitErrorCode = e.Start, e.LatencyNs, e.Rows, e.ErrorCode, e.Retries, e.CommitErrorCode
	x.Warnings = e.Warnings
	if e.IntendedStart != nil {
		x.IntendedStart = *e.IntendedStart
	}
	m.Add(&x)
}

// reports are the nodes' figures, by name; none when the rows name fewer
// than two nodes (one server: the run's own figures).
func (a nodeAcc) reports() []NodeReport {
	if len(a) < 2 {
		return nil
	}
	var out []NodeReport
	for _, name := range slices.Sorted(maps.Keys(a)) {
		m := a[name]
		m.Close()
		out = append(out, NodeReport{Node: name, Summary: metrics.SummaryOf(m)})
	}
	return out
}
