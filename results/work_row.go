package results

import "time"

// WorkSource says where the figures of a Work come from. Figures of different
// sources are not comparable with each other: rows_examined of ANALYZE counts
// the rows the table accesses returned, while the session status counts
// every handler read, rowid filters and internal lookups included.
type WorkSource string

const (
	// SourceMariaDBAnalyze is MariaDB's ANALYZE FORMAT=JSON: the statement is run
	// again with the same values and its per-table r_rows, r_loops and
	// r_engine_stats are read. Reads only: it would run a write twice.
	SourceMariaDBAnalyze WorkSource = "mariadb_analyze"
	// SourceMySQLAnalyze is MySQL's EXPLAIN ANALYZE (8.0.18+): the statement is
	// run again and its iterators' rows and loops are read. Rows per loop
	// are printed rounded (to an integer before 8.0.33, to three
	// significant digits since), so its table figures are close, not
	// exact, though the same output always gives the same figures.
	SourceMySQLAnalyze WorkSource = "mysql_analyze"
	// SourceSessionStatus is the change of the connection's session status
	// counters around the real execution, less what reading them costs.
	// Exact, and it serves writes, which it does not run again; it has no
	// per-table figures.
	SourceSessionStatus WorkSource = "session_status"
	// SourceStatementEvent is the execution's row in
	// performance_schema.events_statements_history (MySQL 8 by default;
	// MariaDB only with the Performance Schema and its statement history
	// consumer on).
	SourceStatementEvent WorkSource = "statement_event"
)

// Work is what one sampled execution of a statement did, the row of a
// work file: the parsers and capture functions of package work fill its
// figures, the engine its key. The key (run, client host, segment, thread, event,
// statement) is the key of the execution's row in the executions files, so
// the two join, and two runs with the same seed and options pair their
// samples on it (their Params then match too). What the figures mean, and
// how they are taken, is package work's.
// Counters a source does not give are nil (null in the file), not zero.
//
// The key is not a struct of its own embedded here: parquet-go (v0.32)
// reads the nulls of an embedded struct's pointer fields back as zeros.
type Work struct {
	RunID        string   `parquet:"run_id,dict"`
	Scenario     string   `parquet:"scenario,dict"`
	Endpoint     string   `parquet:"endpoint,dict"`
	ClientHost   string   `parquet:"client_host,dict"`
	Segment      int32    `parquet:"segment"`
	Thread       int32    `parquet:"thread"`
	Event        int64    `parquet:"event"`
	StatementSeq int32    `parquet:"statement_seq"`
	PlanHash     string   `parquet:"plan_hash,dict,optional" stats:"none"` // the plan the engine knew the statement to have
	Params       []string `parquet:"params,list" stats:"none"`
	// Time is when the sample was taken: for an ANALYZE source, when the
	// statement ran again, which may be a little after the execution.
	Time time.Time `parquet:"time,timestamp(nanosecond)"`
	// Warmup marks a sample of the warmup phase: work does not depend on
	// warm caches, so warmup executions are sampled too.
	Warmup bool `parquet:"warmup,optional"`
	// Retries is the deadlock and lock wait retries of the execution: a
	// SourceSessionStatus work then holds the work of every try.
	Retries int32 `parquet:"retries"`
	// Error is why the sample failed (its figures are then null); it says
	// nothing about the execution, whose own error is in the executions
	// file.
	Error string `parquet:"error,optional" stats:"none"`

	Source WorkSource `parquet:"source,dict"`
	// RowsExamined is the rows the statement read from tables, as its
	// source counts them (see Source).
	RowsExamined *int64 `parquet:"rows_examined,optional"`
	RowsSent     *int64 `parquet:"rows_sent,optional"`
	// RowsChanged is the rows a write inserted, updated or deleted.
	RowsChanged *int64 `parquet:"rows_changed,optional"`
	// Pages is the buffer pool page requests of the table accesses
	// (MariaDB's r_engine_stats.pages_accessed), cached or not.
	Pages *int64 `parquet:"pages,optional"`
	// The handler calls of the session status: index lookups, the next,
	// previous, first and last entry of an index, row reads by position
	// and by table scan, and rows written, updated and deleted.
	HandlerReadKey     *int64 `parquet:"handler_read_key,optional"`
	HandlerReadNext    *int64 `parquet:"handler_read_next,optional"`
	HandlerReadPrev    *int64 `parquet:"handler_read_prev,optional"`
	HandlerReadFirst   *int64 `parquet:"handler_read_first,optional"`
	HandlerReadLast    *int64 `parquet:"handler_read_last,optional"`
	HandlerReadRnd     *int64 `parquet:"handler_read_rnd,optional"`
	HandlerReadRndNext *int64 `parquet:"handler_read_rnd_next,optional"`
	HandlerWrite       *int64 `parquet:"handler_write,optional"`
	HandlerUpdate      *int64 `parquet:"handler_update,optional"`
	HandlerDelete      *int64 `parquet:"handler_delete,optional"`
	TmpTables          *int64 `parquet:"tmp_tables,optional"`
	TmpDiskTables      *int64 `parquet:"tmp_disk_tables,optional"`
	// TmpRowsRead is the rows read back from internal temporary tables
	// (MariaDB's Rows_tmp_read).
	TmpRowsRead     *int64 `parquet:"tmp_rows_read,optional"`
	SortRows        *int64 `parquet:"sort_rows,optional"`
	SortMergePasses *int64 `parquet:"sort_merge_passes,optional"`
	// FullScans counts joins whose first table was read by a full scan
	// (Select_scan), FullJoins joins that read a later table without an
	// index (Select_full_join).
	FullScans *int64 `parquet:"full_scans,optional"`
	FullJoins *int64 `parquet:"full_joins,optional"`
	// Tables are the table accesses in the plan's order: the join order
	// within each query block. Only the ANALYZE sources have them.
	Tables []WorkTable `parquet:"tables,list"`
}

// WorkTable is the work of one table access of an execution.
type WorkTable struct {
	// SelectID is the query block of the access (1 is the outermost); 0
	// when the source does not number them.
	SelectID int32 `parquet:"select_id"`
	// Name is the table's name in the statement (its alias when it has
	// one), or the server's name for a temporary table (<derived2>,
	// <temporary>).
	Name string `parquet:"table,dict"`
	// Access is the access type in the server's EXPLAIN words: ALL,
	// index, range, ref, eq_ref, const, ... (MySQL's iterator names are
	// mapped to these).
	Access string `parquet:"access,dict"`
	Key    string `parquet:"key,dict,optional"` // the index read; empty for a table scan
	// Loops is how many times the access ran (once per row of the tables
	// before it in a nested loop), Rows the rows it returned over all of
	// them, before the conditions attached to the table filtered them.
	Loops int64 `parquet:"loops"`
	Rows  int64 `parquet:"rows"`
	// Filtered is the share of Rows the attached conditions kept, in
	// percent; nil when the source does not say.
	Filtered *float64 `parquet:"filtered,optional"`
	Pages    *int64   `parquet:"pages,optional"`
	// JoinBuffer names the join algorithm that buffers the rows before
	// this table (MariaDB BNL, BNLH, BKA, BKAH; MySQL hash); empty for a
	// plain nested loop. Compared is then how many buffered rows the
	// table's rows were checked against, which Rows does not show.
	JoinBuffer string `parquet:"join_buffer,dict,optional"`
	Compared   *int64 `parquet:"compared,optional"`
}

// Clone is a copy of w that shares no memory with it; empty lists are nil.
func (w *Work) Clone() Work {
	c := *w
	c.Params = append([]string(nil), w.Params...)
	for _, p := range []**int64{&c.RowsExamined, &c.RowsSent, &c.RowsChanged, &c.Pages, &c.HandlerReadKey, &c.HandlerReadNext,
		&c.HandlerReadPrev, &c.HandlerReadFirst, &c.HandlerReadLast, &c.HandlerReadRnd, &c.HandlerReadRndNext, &c.HandlerWrite,
		&c.HandlerUpdate, &c.HandlerDelete, &c.TmpTables, &c.TmpDiskTables, &c.TmpRowsRead, &c.SortRows, &c.SortMergePasses,
		&c.FullScans, &c.FullJoins} {
		if *p != nil {
			*p = counter(**p)
		}
	}
	c.Tables = make([]WorkTable, len(w.Tables))
	for i, t := range w.Tables {
		if t.Filtered != nil {
			f := *t.Filtered
			t.Filtered = &f
		}
		if t.Pages != nil {
			t.Pages = counter(*t.Pages)
		}
		if t.Compared != nil {
			t.Compared = counter(*t.Compared)
		}
		c.Tables[i] = t
	}
	if len(w.Tables) == 0 {
		c.Tables = nil // as an empty list reads back
	}
	return c
}

func counter(n int64) *int64 { return &n }
