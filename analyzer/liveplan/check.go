package liveplan

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/lint"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/explain"
	"github.com/joinbench/joinbench/explain/capture"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// Options tell how scenarios are rendered for EXPLAIN.
type Options struct {
	// TableName is the prefix of the main tables (table(main) stands for
	// its first table), as lint's --table-name.
	TableName string
	// TableSize is the rows per table id(table) parameters draw from; 0
	// means the corpus default.
	TableSize int64
	// Seed chooses the sample values; one seed renders every file the same
	// way each time.
	Seed uint64
}

// Check explains every plain SELECT scenario of files on db and returns
// the findings of the plan rules. base holds the schema names resolve
// against (the server's) and the server's flavour; a file's own Options,
// when set, replace it. A failure of the server as a whole (the
// connection lost) ends the check with an error; a statement the server
// rejects only skips its file.
func Check(ctx context.Context, db *sql.DB, files []analyzer.File, base *analyzer.Options, o Options) (*lint.PlanReport, error) {
	if base == nil || base.Schema == nil {
		return nil, errors.New("liveplan: no schema to render scenarios with")
	}
	if base.Flavor.Name == flavor.TiDB {
		return nil, errors.New("liveplan: TiDB plans are not compared with hints")
	}
	// Each file costs a few round trips (transaction, prepare, explain,
	// rollback): a few connections at once hide them on a remote server.
	results := make([]fileResult, len(files))
	var next atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < min(workers, len(files)); w++ {
		g.Go(func() error {
			conn, err := db.Conn(gctx)
			if err != nil {
				return fmt.Errorf("check plans: %w", err)
			}
			defer conn.Close()
			if err := jsonFormatV1(gctx, conn, base.Flavor); err != nil {
				return err
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				if results[i], err = checkFile(gctx, conn, files[i], base, o); err != nil {
					return err
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	res := &lint.PlanReport{}
	for _, r := range results {
		if r.explained {
			res.Explained++
		}
		if r.skipped != nil {
			res.Skipped = append(res.Skipped, *r.skipped)
		}
		res.Diagnostics = append(res.Diagnostics, r.diags...)
	}
	analyzer.SortDiagnostics(res.Diagnostics)
	return res, nil
}

// workers is how many connections a check explains on at once.
const workers = 4

// fileResult is what the check found in one file.
type fileResult struct {
	explained bool
	skipped   *lint.SkippedFile
	diags     []analyzer.Diagnostic
}

// checkFile explains one file's statement, when it is a plain SELECT, and
// runs the plan rules on it. Only a failure of the connection is an
// error; a statement the server rejects skips the file.
func checkFile(ctx context.Context, conn *sql.Conn, f analyzer.File, base *analyzer.Options, o Options) (fileResult, error) {
	opts := f.Options
	if opts == nil {
		opts = base
	}
	st, reason := renderRead(f, opts, o)
	if st == nil {
		if reason != "" {
			return fileResult{skipped: &lint.SkippedFile{Path: f.Path, Reason: reason}}, nil
		}
		return fileResult{}, nil
	}
	plan, err := explainRead(ctx, conn, base.Flavor, st)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, sql.ErrConnDone) || errors.Is(err, errTransaction) {
			return fileResult{}, err
		}
		return fileResult{skipped: &lint.SkippedFile{Path: f.Path, Reason: err.Error()}}, nil
	}
	return fileResult{explained: true, diags: analyzer.CheckPlan(f.Path, f.Source, opts, plan)}, nil
}

// renderRead renders the file's statement with sample values when it is
// one plain read query (explainable); otherwise it returns nil and, for a scenario that is
// not checked for a reason worth telling, the reason.
func renderRead(f analyzer.File, opts *analyzer.Options, o Options) (*corpus.Statement, string) {
	sc := f.Scenario // as the loader read it, with its corpus's lists
	if sc == nil {
		var err error
		if sc, err = corpus.ParseFile(f.Path, []byte(f.Source)); err != nil {
			return nil, "" // not a scenario (a DDL file), or one the static rules report
		}
	}
	if sc.Plain || !explainable(sc) {
		return nil, ""
	}
	t, err := corpus.Compile(sc, opts.Schema, corpus.CompileOptions{Tables: 1, TableName: o.TableName, TableSize: o.TableSize})
	if err != nil {
		return nil, "cannot render: " + err.Error()
	}
	if t.Write {
		return nil, ""
	}
	st := t.NewRenderer(o.Seed, 0).Next()[0]
	return &corpus.Statement{SQL: st.SQL, Args: append([]any(nil), st.Args...)}, ""
}

// explainable reports whether the scenario is one statement that only
// reads (its kind as the loader classified it, corpus.ClassifyStmt, the
// classification run --read-only uses: no locking clause, no INTO OUTFILE
// at any level) and is a query EXPLAIN takes: SELECT, WITH ... SELECT, a UNION,
// TABLE or VALUES, not EXPLAIN, DESCRIBE, SHOW or DO, which are reads too.
func explainable(sc *corpus.Scenario) bool {
	sc.Classify() // lint's loader leaves it to be done here
	if len(sc.Statements) != 1 || sc.Statements[0].Kind != corpus.StmtRead {
		return false
	}
	span := sc.Statements[0].Span
	lx := sqllex.NewScanner(sc.Source[:span.End], span.Start)
	for t := lx.Next(); t.Kind != sqllex.EOF; t = lx.Next() {
		switch {
		case t.Kind.IsSpaceOrComment() || t.Kind == sqllex.ExecStart || t.Kind == sqllex.ExecEnd:
			continue
		case t.Kind == sqllex.Punct:
			return sc.Source[t.Start] == '(' // (SELECT ...) UNION (SELECT ...)
		}
		switch strings.ToUpper(t.Text(sc.Source)) {
		case "SELECT", "WITH", "TABLE", "VALUES":
			return true
		}
		return false
	}
	return false
}

// errTransaction marks a failure to open or end the read-only
// transaction: the server, not the statement, is the problem.
var errTransaction = errors.New("read-only transaction")

// explainTimeout bounds one EXPLAIN: the optimizer alone works on it, but
// a server stuck on a lock or a dead connection must not hang lint.
const explainTimeout = 30 * time.Second

// explainRead runs EXPLAIN FORMAT=JSON of the statement inside a
// read-only transaction and reduces the plan to its table accesses.
func explainRead(ctx context.Context, conn *sql.Conn, fl flavor.Flavor, st *corpus.Statement) (*analyzer.Plan, error) {
	ctx, cancel := context.WithTimeout(ctx, explainTimeout)
	defer cancel()
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errTransaction, err)
	}
	defer tx.Rollback()
	q := capture.Statements(fl, strings.TrimSpace(st.SQL), false)[0].Text
	var text string
	if err := tx.QueryRowContext(ctx, q, st.Args...).Scan(&text); err != nil {
		return nil, fmt.Errorf("explain: %w", err)
	}
	return PlanOf(text)
}

// PlanOf reduces a MySQL or MariaDB FORMAT=JSON plan to what the plan
// rules compare.
func PlanOf(jsonPlan string) (*analyzer.Plan, error) {
	acc, err := explain.Accesses(jsonPlan)
	if err != nil {
		return nil, err
	}
	p := &analyzer.Plan{Tables: make([]analyzer.PlanTable, len(acc))}
	for i, a := range acc {
		p.Tables[i] = analyzer.PlanTable{SelectID: a.SelectID, Name: a.Table, Access: a.Type, Keys: a.Keys}
	}
	return p, nil
}

// jsonFormatV1 asks MySQL 8.3 and later for the JSON plan format the
// plan is read in (8.3 added a second one, chosen by a session variable).
func jsonFormatV1(ctx context.Context, conn *sql.Conn, fl flavor.Flavor) error {
	if (fl.Name == flavor.MySQL || fl.Name == flavor.Percona) && fl.AtLeast(8, 3, 0) {
		if _, err := conn.ExecContext(ctx, "SET SESSION explain_json_format_version = 1"); err != nil {
			return fmt.Errorf("check plans: %w", err)
		}
	}
	return nil
}
