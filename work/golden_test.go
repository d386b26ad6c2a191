package work

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// render writes a Work as the golden files hold it: its counters, then a
// line per table.
func render(w *results.Work) string {
	var b strings.Builder
	fmt.Fprintf(&b, "source %s\n", w.Source)
	for _, c := range []struct {
		name string
		v    *int64
	}{
		{"rows_examined", w.RowsExamined}, {"rows_sent", w.RowsSent}, {"rows_changed", w.RowsChanged},
		{"pages", w.Pages}, {"tmp_tables", w.TmpTables}, {"sort_rows", w.SortRows},
	} {
		if v, ok := Value(c.v); ok {
			fmt.Fprintf(&b, "%s %d\n", c.name, v)
		}
	}
	for _, t := range w.Tables {
		fmt.Fprintf(&b, "select %d  %-10s %-12s %-24s loops %-6d rows %-7d", t.SelectID, t.Name, t.Access, t.Key, t.Loops, t.Rows)
		if t.Filtered != nil {
			fmt.Fprintf(&b, " filtered %g", *t.Filtered)
		}
		if t.Pages != nil {
			fmt.Fprintf(&b, " pages %d", *t.Pages)
		}
		if t.JoinBuffer != "" {
			fmt.Fprintf(&b, " buffer %s", t.JoinBuffer)
		}
		if t.Compared != nil {
			fmt.Fprintf(&b, " compared %d", *t.Compared)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// checkGolden compares got with the file's .golden twin.
func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	golden := strings.TrimSuffix(file, filepath.Ext(file)) + ".golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", file, got, want)
	}
}

func TestMariaDBGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/mariadb/*.json")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			w, err := ParseMariaDBAnalyze(string(b))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, f, render(w))
		})
	}
}

// withoutHeader drops the "# " lines that say where a recorded output
// comes from.
func withoutHeader(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "# ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestMySQLGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/mysql/*.txt")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			w, err := ParseMySQLAnalyze(withoutHeader(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, f, render(w))
		})
	}
}

// parseFile parses a recorded MariaDB output of testdata/mariadb.
func parseFile(t *testing.T, name string) *results.Work {
	t.Helper()
	b, err := os.ReadFile("testdata/mariadb/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseMariaDBAnalyze(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return w
}
