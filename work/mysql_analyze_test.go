package work

import (
	"os"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
)

// These outputs are constructed, not recorded: they follow the number
// formats the MySQL manual describes (rows per loop as an integer before
// 8.0.33, three significant digits since) for a nested loop whose inner
// table runs many loops, which the recorded excerpts lack.
func TestMySQLAnalyzeLoops(t *testing.T) {
	for _, c := range []struct {
		name, text string
		rows       int64
	}{
		{"8.0.33+", `-> Nested loop inner join  (cost=1352 rows=2857) (actual time=0.12..13.1 rows=944 loops=1)
    -> Index lookup on m using comp_attributes (continent='Antarctica')  (cost=352 rows=2857) (actual time=0.1..5.6 rows=2857 loops=1)
    -> Single-row index lookup on level1 using PRIMARY (id=m.l1_id)  (cost=0.25 rows=1) (actual time=0.002..0.002 rows=0.33 loops=2857)`, 2857 + 943},
		{"before 8.0.33", `-> Nested loop inner join  (cost=1352.00 rows=2857) (actual time=0.120..13.100 rows=944 loops=1)
    -> Index lookup on m using comp_attributes (continent='Antarctica')  (cost=352.00 rows=2857) (actual time=0.100..5.600 rows=2857 loops=1)
    -> Single-row index lookup on level1 using PRIMARY (id=m.l1_id)  (cost=0.25 rows=1) (actual time=0.002..0.002 rows=0 loops=2857)`, 2857},
	} {
		w, err := ParseMySQLAnalyze(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := Value(w.RowsExamined); got != c.rows {
			t.Errorf("%s: rows examined %d, want %d", c.name, got, c.rows)
		}
		if l1 := w.Tables[1]; l1.Name != "level1" || l1.Access != "eq_ref" || l1.Key != "PRIMARY" || l1.Loops != 2857 {
			t.Errorf("%s: level1 read as %+v", c.name, l1)
		}
	}
}

func TestMySQLAnalyzeEngineeringNumbers(t *testing.T) {
	b, err := os.ReadFile("testdata/mysql/atlas1727_engineering_numbers.txt")
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, l := range treeLines(withoutHeader(string(b))) {
		if strings.Contains(l.text, "rows=125e+6") {
			found = true
			if loops, rows := actual(l.text); loops != 1 || rows != 125_000_000 {
				t.Errorf("%q: loops %d rows %d", l.text, loops, rows)
			}
		}
	}
	if !found {
		t.Fatal("no line with rows=125e+6")
	}
}

func TestMySQLAnalyzeClientForms(t *testing.T) {
	const plain = `-> Filter: (t3.i > 8)  (cost=1.75 rows=5) (actual time=0.019..0.021 rows=6 loops=1)
    -> Table scan on t3  (cost=1.75 rows=15) (actual time=0.017..0.019 rows=15 loops=1)`
	for name, text := range map[string]string{
		"plain":   plain,
		"escaped": strings.ReplaceAll(plain, "\n", `\n`),
		"table":   "+---+\n| EXPLAIN |\n+---+\n| " + strings.ReplaceAll(plain, "\n", " |\n| ") + " |\n+---+",
	} {
		w, err := ParseMySQLAnalyze(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(w.Tables) != 1 || w.Tables[0].Rows != 15 || w.Tables[0].Name != "t3" {
			t.Errorf("%s: %+v", name, w.Tables)
		}
	}
	if _, err := ParseMySQLAnalyze("EXPLAIN: nothing here"); err == nil {
		t.Error("no iterator lines: no error")
	}
}

func TestMySQLTableDescriptions(t *testing.T) {
	for desc, want := range map[string]results.WorkTable{
		"Table scan on t2":                                                  {Name: "t2", Access: "ALL"},
		"Covering index scan on cat using name":                             {Name: "cat", Access: "index", Key: "name"},
		"Index range scan on t3 using PRIMARY over (17 < pk)":               {Name: "t3", Access: "range", Key: "PRIMARY"},
		"Covering index lookup on js using SkillId (SkillId=s.SkillId)":     {Name: "js", Access: "ref", Key: "SkillId"},
		"Single-row covering index lookup on c using PRIMARY (CompanyId=1)": {Name: "c", Access: "eq_ref", Key: "PRIMARY"},
		"Multi-range index lookup on t2 using k (a=t1.a)":                   {Name: "t2", Access: "ref", Key: "k", JoinBuffer: "BKA"},
		"Constant row from t1":                                              {Name: "t1", Access: "const"},
		"Index skip scan on t using k over 2 <= b":                          {Name: "t", Access: "range", Key: "k"},
	} {
		got, ok := mysqlTable(desc)
		if !ok || got != want {
			t.Errorf("%q: %+v %v, want %+v", desc, got, ok, want)
		}
	}
	for _, desc := range []string{"Filter: (t3.i > 8)", "Hash", "Nested loop inner join", "Aggregate using temporary table"} {
		if got, ok := mysqlTable(desc); ok {
			t.Errorf("%q read as a table: %+v", desc, got)
		}
	}
}
