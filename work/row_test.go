package work

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/joinbench/joinbench/results"
)

func TestWorkParquetRoundTrip(t *testing.T) {
	w := parseFile(t, "simple_inner_index")
	w.RunID, w.Scenario, w.Endpoint, w.ClientHost, w.Thread, w.Event = "r1", "simple_inner_index", "127.0.0.1:3306", "h", 1, 42
	w.Params, w.Time = []string{"active", "Antarctica"}, time.Unix(1700000000, 5).UTC()
	rows := []results.Work{
		*w,
		{RunID: "r1", Scenario: "index_updates", Endpoint: "127.0.0.1:3306", ClientHost: "h", Thread: 0, Event: 3,
			Retries: 1, Time: time.Unix(1700000001, 0).UTC(), Source: results.SourceSessionStatus, RowsExamined: Counter(10), RowsChanged: Counter(10)},
		{RunID: "r1", Scenario: "simple_left_pk", Time: time.Unix(1700000002, 0).UTC(), Error: "connection lost"},
	}
	var buf bytes.Buffer
	pw := parquet.NewGenericWriter[results.Work](&buf)
	if _, err := pw.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	schema := pw.Schema().String()
	for _, col := range []string{"run_id", "statement_seq", "source", "rows_examined", "pages", "handler_read_key", "tables", "access", "join_buffer"} {
		if !strings.Contains(schema, " "+col+" ") {
			t.Errorf("no column %s in\n%s", col, schema)
		}
	}
	pr := parquet.NewGenericReader[results.Work](bytes.NewReader(buf.Bytes()))
	got := make([]results.Work, len(rows))
	if n, err := pr.Read(got); n != len(rows) {
		t.Fatalf("read %d rows: %v", n, err)
	}
	for i := range rows {
		if len(rows[i].Params) == 0 {
			rows[i].Params = got[i].Params // nil and empty lists read back alike
		}
		if len(rows[i].Tables) == 0 {
			rows[i].Tables = got[i].Tables
		}
		if !reflect.DeepEqual(got[i], rows[i]) {
			t.Errorf("row %d:\ngot  %+v\nwant %+v", i, got[i], rows[i])
		}
	}
	// A counter the source does not give is null, not 0.
	if got[1].Pages != nil || got[2].RowsExamined != nil {
		t.Errorf("unknown counters read back as values: %v %v", got[1].Pages, got[2].RowsExamined)
	}
}
