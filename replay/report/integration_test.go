package report

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"testing"
	"time"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/replay/explain"
	"github.com/joinbench/joinbench/replay/results"
)

// Two scenarios of the reference workload, forced to start from m so that
// losing level1's parent_id index cannot be hidden by a join reorder.
var integrationScenarios = map[string]string{
	"simple_inner_index_GB": "SELECT STRAIGHT_JOIN m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy, " +
		"SUM(level1.record_value) l1 FROM main1 AS m INNER JOIN level1 ON m.id = level1.parent_id AND level1.record_status = ? " +
		"WHERE m.continent = ? GROUP BY m.continent, m.year_field ORDER BY m.year_field DESC, cc DESC LIMIT 100",
	"simple_inner_pk_GB": "SELECT STRAIGHT_JOIN m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy, " +
		"SUM(level1.record_value) l1 FROM main1 AS m INNER JOIN level1 ON m.l1_id = level1.id AND level1.record_status = ? " +
		"WHERE m.continent = ? GROUP BY m.continent, m.year_field ORDER BY m.year_field DESC, cc DESC LIMIT 100",
}

// TestCompareRealRegression loads the workload's tables on the test server,
// records a run of two scenarios through the results writers, drops the
// index one of them needs, records a second run, and checks that compare
// flags exactly that scenario, as a regression with a plan change and the
// same results.
func TestCompareRealRegression(t *testing.T) {
	db := testdb.Open(t, "report_regression")
	ctx := context.Background()
	if _, err := ddl.Prepare(ctx, db, ddl.PrepareOptions{Gen: ddl.GenOptions{Seed: 1, TableSize: 4000}, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	fl, err := explain.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	base := recordRun(t, db, fl, parent, "before")
	if _, err := db.Exec("ALTER TABLE level1 DROP INDEX idx_parent_id"); err != nil {
		t.Fatal(err)
	}
	cand := recordRun(t, db, fl, parent, "after")

	// A 50% threshold: the regression is about 10x, and the machine running
	// the tests is shared, so noise must not flag the unaffected scenario.
	c, err := Compare([]string{base}, []string{cand}, CompareOptions{Threshold: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	s := byName(c)
	idx, pk := s["simple_inner_index_GB"], s["simple_inner_pk_GB"]
	t.Logf("index: %s %+v plan changed %v; pk: %s %+v", idx.Verdict, idx.Median, idx.PlanChanged, pk.Verdict, pk.Median)
	t.Logf("plan diff of simple_inner_index_GB:\n%s", idx.PlanDiff)
	if idx.Verdict != Regression || !idx.PlanChanged || idx.PlanDiff == "" {
		t.Errorf("simple_inner_index_GB: %s, plan changed %v, want a regression with a plan change\n%s", idx.Verdict, idx.PlanChanged, idx.PlanDiff)
	}
	if pk.Verdict == Regression || pk.Verdict == WrongResults || pk.PlanChanged {
		t.Errorf("simple_inner_pk_GB: %s, plan changed %v: unaffected by the index, must not be flagged", pk.Verdict, pk.PlanChanged)
	}
	for _, sc := range []ScenarioComparison{idx, pk} {
		if sc.Checksums.Compared == 0 || sc.Checksums.Mismatched != 0 {
			t.Errorf("%s: checksums %+v: the same data must give the same results", sc.Scenario, sc.Checksums)
		}
	}
}

// recordRun executes each scenario over its parameter sets and writes the
// run as joinbench run lays it out.
func recordRun(t *testing.T, db *sql.DB, fl explain.Flavor, parent, id string) string {
	t.Helper()
	ctx := context.Background()
	d, err := results.Create(parent, id, "testhost")
	if err != nil {
		t.Fatal(err)
	}
	w, err := d.NewExecutionWriter()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	statuses := []string{"active", "inactive", "pending"}
	continents := []string{"Africa", "Asia", "Europe", "Oceania"}
	start := time.Now()
	for _, name := range []string{"simple_inner_index_GB", "simple_inner_pk_GB"} {
		q := integrationScenarios[name]
		hash, plans, err := explain.Plan(ctx, conn, fl, q, []any{"active", "Asia"}, false)
		if err != nil {
			t.Fatalf("%s: explain: %v", name, err)
		}
		for _, p := range plans {
			if err := d.Plans().Write(results.Plan{RunID: id, Scenario: name, Endpoint: "test", PlanHash: hash, Format: p.Format, Explain: p.Text, Query: q, FirstSeen: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		var rows []results.Execution
		for i := 0; i < 60; i++ {
			params := []string{statuses[i%3], continents[i%4]}
			t0 := time.Now()
			sum, n, err := runQuery(ctx, conn, q, params)
			lat := time.Since(t0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rows = append(rows, results.Execution{RunID: id, Scenario: name, TemplateHash: name, Endpoint: "test", ClientHost: "testhost",
				Event: int64(i), Start: t0, LatencyNs: lat.Nanoseconds(), Rows: n, PlanHash: hash, Params: params, Checksum: sum})
		}
		if err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.WriteRun(&results.Run{RunID: id, ServerVersion: fl.Version, Flavor: fl.Name, Start: start, End: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return d.Path()
}

func runQuery(ctx context.Context, conn *sql.Conn, q string, params []string) (string, int64, error) {
	rs, err := conn.QueryContext(ctx, q, params[0], params[1])
	if err != nil {
		return "", 0, err
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	h := fnv.New64a()
	n := int64(0)
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return "", 0, err
		}
		for _, v := range vals {
			h.Write(v)
			h.Write([]byte{0})
		}
		n++
	}
	return fmt.Sprintf("%016x", h.Sum64()), n, rs.Err()
}
