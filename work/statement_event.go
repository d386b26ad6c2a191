package work

import (
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/results"
)

// StatementEventColumns are the columns of
// performance_schema.events_statements_history a results.SourceStatementEvent work is
// made of, in MySQL's and MariaDB's names.
var StatementEventColumns = []string{
	"EVENT_NAME", "ROWS_EXAMINED", "ROWS_SENT", "ROWS_AFFECTED",
	"CREATED_TMP_TABLES", "CREATED_TMP_DISK_TABLES", "SORT_ROWS", "SORT_MERGE_PASSES",
	"SELECT_SCAN", "SELECT_FULL_JOIN",
}

// StatementEventQuery reads the last statement the connection it runs on
// completed: run it on that connection right after the statement (the
// query itself is not in the history until it ends). Closing or resetting
// a prepared statement (which a driver may do right after executing it)
// is not a statement here. MySQL 8.0.16+ names
// the connection's thread with PS_CURRENT_THREAD_ID(); MariaDB and older
// MySQL find it by connection id. The Performance Schema must be on with
// the events_statements_history consumer (MySQL 8's defaults; off by
// default on MariaDB).
func StatementEventQuery(fl flavor.Flavor) string {
	thread := "(SELECT THREAD_ID FROM performance_schema.threads WHERE PROCESSLIST_ID = CONNECTION_ID())"
	if fl.Is(flavor.MySQL, flavor.Percona) && fl.AtLeast(8, 0, 16) {
		thread = "PS_CURRENT_THREAD_ID()"
	}
	return "SELECT " + strings.Join(StatementEventColumns, ", ") +
		" FROM performance_schema.events_statements_history WHERE THREAD_ID = " + thread +
		" AND EVENT_NAME NOT IN ('statement/com/Close stmt', 'statement/com/Reset stmt')" +
		" ORDER BY EVENT_ID DESC LIMIT 1"
}

// StatementEventWork maps the counters of an event row, in the order of
// StatementEventColumns after EVENT_NAME (nil: null). RowsChanged is ROWS_AFFECTED: an
// INSERT ... ON DUPLICATE KEY UPDATE that updates a row counts it twice.
func StatementEventWork(v []*int64) *results.Work {
	get := func(i int) *int64 { return v[i] }
	return &results.Work{
		Source:          results.SourceStatementEvent,
		RowsExamined:    get(0),
		RowsSent:        get(1),
		RowsChanged:     get(2),
		TmpTables:       get(3),
		TmpDiskTables:   get(4),
		SortRows:        get(5),
		SortMergePasses: get(6),
		FullScans:       get(7),
		FullJoins:       get(8),
	}
}
