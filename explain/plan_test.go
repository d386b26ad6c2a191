package explain

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/flavor"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func flavorFor(name string) flavor.Flavor {
	switch {
	case strings.HasPrefix(name, "mariadb"):
		return flavor.Flavor{Name: flavor.MariaDB, Version: "10.11.19"}
	case strings.HasPrefix(name, "tidb"):
		return flavor.Flavor{Name: flavor.TiDB, Version: "v7.5.0"}
	default:
		return flavor.Flavor{Name: flavor.MySQL, Version: "8.0.36"}
	}
}

// TestGolden renders every saved plan in testdata as hash + tree and
// compares with the .golden file next to it (go test -update rewrites).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no plans in testdata: %v", err)
	}
	hashes := map[string]string{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fl := flavorFor(name)
			h, err := ShapeHash(fl, string(b))
			if err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(h) {
				t.Errorf("hash %q is not 16 hex digits", h)
			}
			tree, err := Tree(fl, string(b))
			if err != nil {
				t.Fatal(err)
			}
			hashes[name] = h
			got := "hash: " + h + "\n" + tree
			golden := strings.TrimSuffix(f, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs:\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
	if a, b := hashes["mysql8_gb_hashjoin"], hashes["mysql8_gb_hashjoin_other_values"]; a != b {
		t.Errorf("same MySQL plan with other estimates and values: hashes %s and %s differ", a, b)
	}
	seen := map[string]string{}
	for name, h := range hashes {
		if name == "mysql8_gb_hashjoin_other_values" {
			continue
		}
		if other, ok := seen[h]; ok {
			t.Errorf("different plans %s and %s share hash %s", name, other, h)
		}
		seen[h] = name
	}
}

var literalRe = regexp.MustCompile(`'[^']*'`)

// TestHashIgnoresEstimatesAndLiterals rewrites every number and quoted
// literal in a MariaDB plan captured from a server: the hash must not move,
// the tree must show the new estimates.
func TestHashIgnoresEstimatesAndLiterals(t *testing.T) {
	b, err := os.ReadFile("testdata/mariadb_inner_index_gb.json")
	if err != nil {
		t.Fatal(err)
	}
	fl := flavorFor("mariadb")
	orig := string(b)
	changed := literalRe.ReplaceAllString(orig, "'Oceania'")
	// numbers that are values (rows, filtered, costs), not select ids or key parts
	changed = strings.NewReplacer(`"rows": 166`, `"rows": 1234`, `"filtered": 14.30000019`, `"filtered": 9.5`,
		`"jbscratch_explain.level1`, `"otherdb.level1`).Replace(changed)
	if changed == orig {
		t.Fatal("test did not change the plan")
	}
	h1, _ := ShapeHash(fl, orig)
	h2, err := ShapeHash(fl, changed)
	if err != nil {
		t.Fatal(err)
	}
	if h1 != h2 {
		t.Errorf("hash changed with estimates and literals: %s vs %s", h1, h2)
	}
	tree, _ := Tree(fl, changed)
	if !strings.Contains(tree, "rows=1234") {
		t.Errorf("tree does not show estimates:\n%s", tree)
	}
	// a structural change must move the hash
	for _, c := range [][2]string{
		{`"access_type": "eq_ref"`, `"access_type": "ALL"`},
		{`"key": "idx_record_status"`, `"key": "idx_parent_id"`},
		{`"used_key_parts": ["record_status"]`, `"used_key_parts": ["record_status", "id"]`},
		{`"temporary_table": {`, `"duplicates_removal": {`},
	} {
		h3, err := ShapeHash(fl, strings.Replace(orig, c[0], c[1], 1))
		if err != nil {
			t.Fatal(err)
		}
		if h3 == h1 {
			t.Errorf("hash unchanged after %s -> %s", c[0], c[1])
		}
	}
}

func TestJoinOrderMatters(t *testing.T) {
	fl := flavorFor("mysql")
	a := `{"query_block":{"select_id":1,"nested_loop":[{"table":{"table_name":"a","access_type":"ALL"}},{"table":{"table_name":"b","access_type":"ALL"}}]}}`
	b := `{"query_block":{"select_id":1,"nested_loop":[{"table":{"table_name":"b","access_type":"ALL"}},{"table":{"table_name":"a","access_type":"ALL"}}]}}`
	ha, _ := ShapeHash(fl, a)
	hb, _ := ShapeHash(fl, b)
	if ha == hb {
		t.Error("join order does not change the hash")
	}
}

func TestBadPlans(t *testing.T) {
	for _, s := range []string{"", "{", `{"query_block": 1} x`, `[]`, `{"foo": {}}`, `"text"`} {
		if _, err := ShapeHash(flavorFor("mysql"), s); err == nil {
			t.Errorf("ShapeHash(%q) gave no error", s)
		}
		if _, err := Tree(flavorFor("mysql"), s); err == nil {
			t.Errorf("Tree(%q) gave no error", s)
		}
	}
}

func TestTiDBPlan(t *testing.T) {
	plan := `[{"id":"Projection_7","estRows":"10.00","taskType":"root","operatorInfo":"test.t.a","subOperators":[
	  {"id":"IndexJoin_12","estRows":"10.00","taskType":"root","operatorInfo":"inner join, inner:IndexLookUp_11","subOperators":[
	    {"id":"TableReader_20","estRows":"10.00","taskType":"root","subOperators":[{"id":"Selection_19","estRows":"10.00","taskType":"cop[tikv]","operatorInfo":"eq(test.t.c, 5)","subOperators":[{"id":"TableFullScan_18","estRows":"10000.00","taskType":"cop[tikv]","accessObject":"table:t"}]}]},
	    {"id":"IndexLookUp_11","estRows":"1.00","taskType":"root","subOperators":[{"id":"IndexRangeScan_9","estRows":"1.00","taskType":"cop[tikv]","accessObject":"table:s, index:idx_a(a)"}]}]}]}]`
	fl := flavorFor("tidb")
	h1, err := ShapeHash(fl, plan)
	if err != nil {
		t.Fatal(err)
	}
	other := strings.NewReplacer("_12", "_13", "10000.00", "5.00", "eq(test.t.c, 5)", "eq(test.t.c, 9)").Replace(plan)
	if h2, _ := ShapeHash(fl, other); h2 != h1 {
		t.Errorf("TiDB hash depends on operator numbers or estimates")
	}
	tree, _ := Tree(fl, plan)
	want := "Projection root  # rows=10.00\n  IndexJoin root  # rows=10.00\n    TableReader root  # rows=10.00\n      Selection cop[tikv]  # rows=10.00\n        TableFullScan cop[tikv] table:t  # rows=10000.00\n    IndexLookUp root  # rows=1.00\n      IndexRangeScan cop[tikv] table:s, index:idx_a(a)  # rows=1.00\n"
	if tree != want {
		t.Errorf("tree:\n%s\nwant\n%s", tree, want)
	}
}
