package replay

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/explain"
	"github.com/joinbench/joinbench/explain/capture"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/replay/checksum"
	"github.com/joinbench/joinbench/results"
)

// FromTemplate makes an engine scenario of a compiled corpus template.
func FromTemplate(t *corpus.Template, count int) *Scenario {
	return &Scenario{
		Name:    t.Scenario.Name,
		Hash:    t.Hash,
		Write:   t.Write,
		Count:   count,
		Queries: t.Queries(),
		NewRenderer: func(seed uint64, thread int) Renderer {
			return t.NewRenderer(seed, thread)
		},
	}
}

// ResultsSink records a run in a results folder.
func ResultsSink(d *results.RunDir) Sink { return runDirSink{d} }

type runDirSink struct{ d *results.RunDir }

func (s runDirSink) NewExecutionWriter() (ExecutionWriter, error) { return s.d.NewExecutionWriter() }
func (s runDirSink) WritePlan(p results.Plan) error               { return s.d.Plans().Write(p) }
func (s runDirSink) WriteStatus(rows []results.Status) error      { return s.d.Status().Write(rows) }

// NewExplainer captures plans with EXPLAIN for servers of one flavor and
// hashes their shape. Besides what the server prints, every plan is also
// stored as the indented shape tree ("shape" format) the hash is made of.
func NewExplainer(fl flavor.Flavor) Explainer { return flavorExplainer{fl} }

type flavorExplainer struct{ fl flavor.Flavor }

func (x flavorExplainer) Explain(ctx context.Context, conn *sql.Conn, query string, args []any, analyze bool) (string, []PlanText, error) {
	out, err := capture.Capture(ctx, conn, x.fl, query, args, analyze)
	if err != nil {
		return "", nil, err
	}
	if len(out) == 0 {
		return "", nil, fmt.Errorf("explain: no plan")
	}
	hash, err := explain.ShapeHash(x.fl, out[0].Text)
	if err != nil {
		return "", nil, err
	}
	plans := make([]PlanText, 0, len(out)+1)
	for _, e := range out {
		plans = append(plans, PlanText{Format: e.Format, Text: e.Text})
	}
	if tree, err := explain.Tree(x.fl, out[0].Text); err == nil {
		plans = append(plans, PlanText{Format: "shape", Text: tree})
	}
	return hash, plans, nil
}

// NewChecksum is Config.Checksum backed by package checksum: the multiset
// of rows, whatever their order.
func NewChecksum() Checksummer { return checksum.New(false) }

// ServerVariables are the settings stored in run.json: what changes join
// plans and join speed.
var ServerVariables = []string{
	"version", "version_comment", "optimizer_switch", "optimizer_search_depth", "optimizer_prune_level",
	"join_buffer_size", "join_cache_level", "sort_buffer_size", "tmp_table_size", "max_heap_table_size",
	"innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit", "sync_binlog", "transaction_isolation",
	"tx_isolation", "innodb_adaptive_hash_index", "eq_range_index_dive_limit", "range_optimizer_max_mem_size",
	"optimizer_use_condition_selectivity", "histogram_size", "use_stat_tables", "character_set_server",
	"collation_server", "wsrep_on", "wsrep_sync_wait", "max_statement_time", "max_execution_time",
	"performance_schema", "thread_handling",
}

// ReadServerVariables returns the ServerVariables the server has.
func ReadServerVariables(ctx context.Context, db *sql.DB) (map[string]string, error) {
	q := make([]string, len(ServerVariables))
	for i, v := range ServerVariables {
		q[i] = "'" + v + "'"
	}
	rows, err := db.QueryContext(ctx, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ("+strings.Join(q, ",")+")")
	if err != nil {
		return nil, fmt.Errorf("server variables: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("server variables: %w", err)
		}
		out[k] = v
	}
	return out, rows.Err()
}
