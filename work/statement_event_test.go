package work

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/results"
)

func TestStatementEventQuery(t *testing.T) {
	my := StatementEventQuery(flavor.Flavor{Name: flavor.MySQL, Version: "8.0.36"})
	if !strings.Contains(my, "PS_CURRENT_THREAD_ID()") {
		t.Errorf("MySQL 8.0.36: %s", my)
	}
	for _, fl := range []flavor.Flavor{{Name: flavor.MariaDB, Version: "10.11.9"}, {Name: flavor.MySQL, Version: "8.0.15"}} {
		if q := StatementEventQuery(fl); !strings.Contains(q, "PROCESSLIST_ID = CONNECTION_ID()") {
			t.Errorf("%s: %s", fl, q)
		}
	}
}

// The row is the one MariaDB 10.11 recorded for index_updates (an UPDATE
// of 10 rows found through comp_color); a null column is unknown.
func TestStatementEventWork(t *testing.T) {
	v := Counter
	w := StatementEventWork([]*int64{v(10), v(0), v(10), v(0), v(0), v(0), v(0), v(0), nil})
	want(t, "rows_examined", w.RowsExamined, 10)
	want(t, "rows_changed", w.RowsChanged, 10)
	if w.Source != results.SourceStatementEvent || w.FullJoins != nil {
		t.Errorf("%+v", w)
	}
}
