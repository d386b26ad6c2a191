package load

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// PreparedTables returns the tables of the built-in schema that exist in
// the connection's current database: every <prefix><N> (N without leading
// zeros, whatever --tables was when they were made) and level1..level5, in
// creation order, spelled as the server spells them. Nothing else
// matches. Names are compared as the server compares them (its
// lower_case_table_names), as prepare compares them.
func PreparedTables(ctx context.Context, db *sql.DB, opts ddl.SchemaOptions) ([]string, error) {
	opts, err := opts.Normalize()
	if err != nil {
		return nil, usage.Wrap(err)
	}
	nc, err := tableNameCase(ctx, db)
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'")
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return opts.PreparedAmong(names, nc), nil
}

// Cleanup drops the tables PreparedTables finds and returns their names,
// and the tables split prepares and runs coordinate through
// (segment.CoordinationTables).
func Cleanup(ctx context.Context, db *sql.DB, opts ddl.SchemaOptions) ([]string, error) {
	names, err := PreparedTables(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	for i, n := range names {
		if _, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS "+sqllex.QuoteIdent(n)); err != nil {
			return names[:i], fmt.Errorf("drop %s: %w", n, err)
		}
	}
	// what split prepares and runs coordinated through, if there were any
	// (a split run's claims would otherwise refuse the same --run-id
	// later), and the record of what was loaded
	for _, t := range append(slices.Clone(segment.CoordinationTables), DatasetTable) {
		if _, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS "+t); err != nil {
			return names, fmt.Errorf("drop %s: %w", t, err)
		}
	}
	return names, nil
}

// WarmTable is what Warmup read of one table.
type WarmTable struct {
	Name       string
	Engine     string
	DataBytes  int64
	IndexBytes int64
	Indexes    int
	Took       time.Duration
}

// WarmupResult sums up a warmup.
type WarmupResult struct {
	Tables []WarmTable
	// BufferPoolBytes is innodb_buffer_pool_size (0 when the server has
	// no InnoDB).
	BufferPoolBytes int64
	Duration        time.Duration
}

// TotalBytes is data plus indexes of every table, as the server reports
// them (information_schema estimates).
func (r *WarmupResult) TotalBytes() int64 {
	var n int64
	for _, t := range r.Tables {
		n += t.DataBytes + t.IndexBytes
	}
	return n
}

// Fits says how much of the tables fit in the buffer pool, as a fraction
// capped at 1.
func (r *WarmupResult) Fits() float64 {
	total := r.TotalBytes()
	if total == 0 {
		return 1
	}
	return min(1, float64(r.BufferPoolBytes)/float64(total))
}

// Warmup reads every index of the prepared tables so their pages are in
// the buffer pool: a full scan of the primary key (which, in InnoDB, is
// the rows) and a covering scan of each secondary index, forced with
// FORCE INDEX. MyISAM and Aria tables also get LOAD INDEX INTO CACHE.
// Up to threads scans run at once.
func Warmup(ctx context.Context, db *sql.DB, opts ddl.SchemaOptions, threads int) (*WarmupResult, error) {
	start := time.Now()
	names, err := PreparedTables(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		prefix := opts.TableName
		if prefix == "" {
			prefix = ddl.DefaultTableName
		}
		return nil, usage.Errorf("no prepared tables in this database (looked for %s<N> and level1..level5): run joinbench prepare first", prefix)
	}
	if threads < 1 {
		threads = 1
	}
	dbName, err := currentDatabase(ctx, db)
	if err != nil {
		return nil, err
	}
	schema, err := SchemaFromServer(ctx, db, dbName)
	if err != nil {
		return nil, err
	}
	res := &WarmupResult{}
	var bp sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT @@innodb_buffer_pool_size").Scan(&bp); err == nil {
		res.BufferPoolBytes = bp.Int64
	}
	res.Tables = make([]WarmTable, len(names))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(threads)
	for i, n := range names {
		t := schema.Table(n)
		if t == nil {
			continue
		}
		wt := &res.Tables[i]
		wt.Name, wt.Engine = n, t.Engine
		if err := db.QueryRowContext(ctx, `SELECT COALESCE(DATA_LENGTH, 0), COALESCE(INDEX_LENGTH, 0) FROM information_schema.TABLES
			WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?`, n).Scan(&wt.DataBytes, &wt.IndexBytes); err != nil {
			return nil, fmt.Errorf("size of %s: %w", n, err)
		}
		wt.Indexes = len(t.Indexes)
		stmts := warmStatements(t)
		g.Go(func() error {
			s := time.Now()
			for _, q := range stmts {
				if err := drain(db.QueryContext(gctx, q)); err != nil {
					return fmt.Errorf("warm %s: %s: %w", n, q, err)
				}
			}
			wt.Took = time.Since(s)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	res.Duration = time.Since(start)
	return res, nil
}

// warmStatements returns the reads that bring t's indexes into memory.
func warmStatements(t *ddl.Table) []string {
	q := sqllex.QuoteIdent(t.Name)
	var out []string
	if e := strings.ToLower(t.Engine); e == "myisam" || e == "aria" {
		out = append(out, "LOAD INDEX INTO CACHE "+q)
	}
	// The rows: a scan of the clustered index (or of the heap) summing the
	// last column, which no index covers.
	last := t.Columns[len(t.Columns)-1].Name
	hint := ""
	if t.PrimaryKey != nil {
		hint = " FORCE INDEX (PRIMARY)"
	}
	out = append(out, fmt.Sprintf("SELECT COUNT(*), SUM(LENGTH(%s)) FROM %s%s", sqllex.QuoteIdent(last), q, hint))
	for _, ix := range t.Indexes {
		if ix.Primary || len(ix.Columns) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("SELECT COUNT(*), SUM(LENGTH(%s)) FROM %s FORCE INDEX (%s)", sqllex.QuoteIdent(ix.Columns[0]), q, sqllex.QuoteIdent(ix.Name)))
	}
	return out
}
