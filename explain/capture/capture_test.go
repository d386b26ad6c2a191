package capture

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/explain"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
)

func setupTables(t *testing.T, db *sql.DB) {
	t.Helper()
	for _, q := range []string{
		`CREATE TABLE main1 (id BIGINT PRIMARY KEY AUTO_INCREMENT, l1_id INT, continent VARCHAR(255),
		  year_field YEAR, enum_field ENUM('active','inactive','pending'),
		  KEY idx_l1_id(l1_id), KEY comp_attributes(continent, enum_field))`,
		`CREATE TABLE level1 (id BIGINT PRIMARY KEY AUTO_INCREMENT, parent_id BIGINT, continent VARCHAR(45),
		  record_value BIGINT, record_status ENUM('active','inactive','pending'), KEY idx_parent_id(parent_id))`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	continents := []string{"Africa", "Antarctica", "Asia", "Europe", "North America", "Oceania", "South America"}
	status := []string{"active", "inactive", "pending"}
	var mainRows, levelRows []string
	var args, largs []any
	for i := 0; i < 1400; i++ {
		mainRows = append(mainRows, "(?,?,?,?)")
		args = append(args, i%200+1, continents[i%7], 1999+i%37, status[i%3])
	}
	for i := 0; i < 200; i++ {
		levelRows = append(levelRows, "(?,?,?,?)")
		largs = append(largs, i*7%1400+1, continents[i%7], i*31, status[i%3])
	}
	if _, err := db.Exec("INSERT INTO main1 (l1_id, continent, year_field, enum_field) VALUES "+strings.Join(mainRows, ","), args...); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO level1 (parent_id, continent, record_value, record_status) VALUES "+strings.Join(levelRows, ","), largs...); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("ANALYZE TABLE main1, level1"); err != nil {
		t.Fatal(err)
	}
}

const joinQuery = `SELECT m.continent, m.year_field, m.enum_field, level1.record_value AS l1
FROM main1 AS m INNER JOIN level1 ON m.l1_id = level1.id AND level1.record_status = ?
WHERE m.continent = ? ORDER BY m.year_field DESC, l1 DESC LIMIT 100`

func TestCaptureAgainstServer(t *testing.T) {
	db := testdb.Open(t, "replay_explain")
	ctx := context.Background()
	setupTables(t, db)
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if fl.Name == "" || fl.Version == "" {
		t.Fatalf("DetectFlavor = %+v", fl)
	}
	t.Logf("server: %v", fl)
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	hashFor := func(status, continent string, analyze bool) (string, []Explained) {
		t.Helper()
		ex, err := Capture(ctx, conn, fl, joinQuery, []any{status, continent}, analyze)
		if err != nil {
			t.Fatal(err)
		}
		if len(ex) == 0 || ex[0].Format != "json" || !json.Valid([]byte(ex[0].Text)) {
			t.Fatalf("first plan is not JSON: %+v", ex)
		}
		h, err := explain.ShapeHash(fl, ex[0].Text)
		if err != nil {
			t.Fatalf("%v\n%s", err, ex[0].Text)
		}
		if _, err := explain.Tree(fl, ex[0].Text); err != nil {
			t.Fatal(err)
		}
		return h, ex
	}
	base, ex := hashFor("active", "Europe", false)
	tree, _ := explain.Tree(fl, ex[0].Text)
	t.Logf("plan %s:\n%s", base, tree)
	for _, p := range [][2]string{{"pending", "Asia"}, {"inactive", "Oceania"}, {"active", "South America"}} {
		if h, ex := hashFor(p[0], p[1], false); h != base {
			tr, _ := explain.Tree(fl, ex[0].Text)
			t.Errorf("plan hash changed with parameters %v: %s != %s\n%s", p, h, base, tr)
		}
	}
	if fl.Name == flavor.MariaDB || fl.AtLeast(8, 0, 18) {
		h, ex := hashFor("active", "Europe", true)
		last := ex[len(ex)-1]
		if last.Format != "analyze" || last.Text == "" {
			t.Fatalf("no analyze output: %+v", ex)
		}
		if fl.Name == flavor.MariaDB {
			ah, err := explain.ShapeHash(fl, last.Text)
			if err != nil {
				t.Fatal(err)
			}
			if ah != h {
				t.Errorf("ANALYZE plan hash %s differs from EXPLAIN's %s", ah, h)
			}
		}
	}

	if h, plans, err := Plan(ctx, conn, fl, joinQuery, []any{"active", "Europe"}, false); err != nil || h != base || len(plans) == 0 {
		t.Errorf("Plan = %s, %d plans, %v; want hash %s", h, len(plans), err, base)
	}

	if _, err := db.Exec("ALTER TABLE main1 DROP INDEX comp_attributes"); err != nil {
		t.Fatal(err)
	}
	if h, ex := hashFor("active", "Europe", false); h == base {
		tr, _ := explain.Tree(fl, ex[0].Text)
		t.Errorf("plan hash unchanged after dropping the index used:\n%s", tr)
	}
}

func TestCaptureError(t *testing.T) {
	db := testdb.Open(t, "replay_explain_err")
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Capture(ctx, conn, fl, "SELECT * FROM missing_table WHERE a = ?", []any{1}, false); err == nil ||
		!strings.Contains(err.Error(), "missing_table") {
		t.Errorf("Capture of a bad statement: %v", err)
	}
}

// TestCaptureEscapesInConditions: MariaDB writes SQL escapes (\' \Z), raw
// tabs and quotes into its JSON plan; what Capture returns is valid JSON
// with a shape hash all the same.
func TestCaptureEscapesInConditions(t *testing.T) {
	db := testdb.Open(t, "replay_explain_escapes")
	ctx := context.Background()
	setupTables(t, db)
	fl, err := server.DetectFlavor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := "SELECT * FROM main1 AS m WHERE m.continent = 'it''s' OR m.continent = 'b\\Zc' OR m.continent = 'tab\there' OR m.continent = '\"' OR m.continent = ?"
	hash, plans, err := Plan(ctx, conn, fl, q, []any{"Asia"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if hash == "" || !json.Valid([]byte(plans[0].Text)) {
		t.Fatalf("hash %q, plan not valid JSON:\n%s", hash, plans[0].Text)
	}
}

func TestStatements(t *testing.T) {
	q := "SELECT 1 FROM t WHERE a = ?"
	formats := func(fl flavor.Flavor, analyze bool) string {
		var f []string
		for _, s := range Statements(fl, q, analyze) {
			if !strings.HasSuffix(s.Text, q) {
				t.Errorf("statement %q does not end in the query", s.Text)
			}
			f = append(f, s.Format)
		}
		return strings.Join(f, ",")
	}
	for _, c := range []struct {
		fl      flavor.Flavor
		analyze bool
		want    string
	}{
		{flavor.Flavor{Name: flavor.MariaDB, Version: "10.11.9"}, false, "json"},
		{flavor.Flavor{Name: flavor.MariaDB, Version: "10.11.9"}, true, "json,analyze"},
		{flavor.Flavor{Name: flavor.MySQL, Version: "5.7.44"}, true, "json"},
		{flavor.Flavor{Name: flavor.MySQL, Version: "8.0.16"}, true, "json,tree"},
		{flavor.Flavor{Name: "percona", Version: "8.0.36"}, true, "json,tree,analyze"},
		{flavor.Flavor{Name: flavor.TiDB, Version: "v7.5.0"}, false, "json"},
	} {
		if got := formats(c.fl, c.analyze); got != c.want {
			t.Errorf("%v analyze=%v: formats %s, want %s", c.fl, c.analyze, got, c.want)
		}
	}
}
