package ingest

import (
	"os"
	"strings"
	"testing"
	"time"
)

func readSlow(t *testing.T, path string) []Statement {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Statement
	if err := ReadSlowLog(f, path, func(st Statement) error { out = append(out, st); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReadSlowLogMySQL8Extra reads MySQL 8's slow log with log_slow_extra
// (a fixture written from MySQL's documented format: MySQL is not
// installable here): every field on the Query_time line, `use` and `SET
// timestamp` lines, a statement over several lines, an administrator
// command.
func TestReadSlowLogMySQL8Extra(t *testing.T) {
	sts := readSlow(t, "testdata/mysql8-slow.log")
	if len(sts) != 6 {
		for _, s := range sts {
			t.Logf("%s: %q", s.Source, s.SQL)
		}
		t.Fatalf("%d statements, want 6 (the Quit entry is none)", len(sts))
	}
	first := sts[0]
	if !first.HasTime || first.Time != 4211*time.Microsecond || first.RowsSent != 3 || first.RowsExamined != 12 || first.Database != "shop" {
		t.Errorf("first statement: %+v", first)
	}
	if !strings.HasPrefix(first.SQL, "SELECT o.id") || !strings.HasSuffix(first.SQL, "LIMIT 20") || strings.Count(first.SQL, "\n") != 5 {
		t.Errorf("first statement's text: %q", first.SQL)
	}
	if first.Source != "testdata/mysql8-slow.log:9" {
		t.Errorf("first statement's source %s, want line 9", first.Source)
	}
	if sts[1].SQL != "SET NAMES utf8mb4" || sts[1].Database != "shop" {
		t.Errorf("second statement: %+v", sts[1])
	}
	if Fingerprint(sts[0].SQL).Fingerprint != Fingerprint(sts[2].SQL).Fingerprint {
		t.Errorf("the same query written twice gives two fingerprints:\n%s\n%s", Fingerprint(sts[0].SQL).Fingerprint, Fingerprint(sts[2].SQL).Fingerprint)
	}
}

// TestReadSlowLogMariaDBVerbose reads a real MariaDB 10.11 slow log with
// log_slow_verbosity=query_plan,explain: its Thread_id/Schema/QC_hit,
// Rows_affected, Full_scan and explain lines are header, not SQL.
func TestReadSlowLogMariaDBVerbose(t *testing.T) {
	sts := readSlow(t, "testdata/mariadb-verbose-slow.log")
	if len(sts) == 0 {
		t.Fatal("no statement")
	}
	for _, st := range sts {
		if strings.Contains(st.SQL, "# explain") || strings.Contains(st.SQL, "Full_scan") || strings.Contains(st.SQL, "SET timestamp") {
			t.Errorf("%s: header lines in the SQL: %q", st.Source, st.SQL)
		}
		if !st.HasTime || st.Database != "joinbench" {
			t.Errorf("%s: time %v (%v), database %q", st.Source, st.Time, st.HasTime, st.Database)
		}
	}
}

func TestReadGeneralLog(t *testing.T) {
	for path, want := range map[string][]string{
		// MySQL 8's format, written by hand from its documentation.
		"testdata/mysql8-general.log": {"shop:SET NAMES utf8mb4", "shop:SELECT o.id, o.total_cents, c.email\nFROM orders o",
			"shop:SELECT id FROM orders WHERE customer_id = 205", "shop:SELECT COUNT(*) FROM customers WHERE country = 'JP'",
			"shop:ALTER USER"},
	} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []Statement
		err = ReadGeneralLog(f, path, func(st Statement) error { got = append(got, st); return nil })
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d statements, want %d: %+v", path, len(got), len(want), got)
		}
		for i, w := range want {
			db, prefix, _ := strings.Cut(w, ":")
			if got[i].Database != db || !strings.HasPrefix(got[i].SQL, prefix) || got[i].HasTime {
				t.Errorf("%s: statement %d = %q in %q (timed %v), want %q in %q", path, i, got[i].SQL, got[i].Database, got[i].HasTime, prefix, db)
			}
		}
	}
}

// TestReadDigestMySQL8 reads a dump of MySQL 8's digest table with
// QUANTILE_95 and QUERY_SAMPLE_TEXT (written by hand from its
// documented columns): counts, times in picoseconds, the p95, and the
// sample's values standing for the digest's ?.
func TestReadDigestMySQL8(t *testing.T) {
	s := NewSet(nil)
	if err := s.ReadFile("testdata/mysql8-digest.tsv", FormatAuto); err != nil {
		t.Fatal(err)
	}
	groups := s.Ranked(false)
	if len(groups) != 2 {
		t.Fatalf("%d groups, want 2 (SET and a table-less SELECT left out): %v", len(groups), s.Skipped)
	}
	g := groups[0]
	if g.Count != 1200 || g.Total != 9120*time.Millisecond || !g.P95Known || g.P95 != 15135612*time.Nanosecond || g.Max != 88*time.Millisecond {
		t.Errorf("first group: count %d total %v p95 %v (%v) max %v", g.Count, g.Total, g.P95, g.P95Known, g.Max)
	}
	if want := [][]string{{"17"}, {"paid", "shipped"}, {"20"}}; len(g.Values) != 3 || g.Values[0][0] != "17" || len(g.Values[1]) != 2 || g.Values[2][0] != "20" {
		t.Errorf("values %q, want those of the sample %q", g.Values, want)
	}
	if len(groups[1].Values[0]) != 0 {
		t.Errorf("a digest without a sample knows no value: %q", groups[1].Values)
	}
	if s.Skipped["SET"] != 1500 || s.Skipped[SkipNoTable] != 40 {
		t.Errorf("skipped %v", s.Skipped)
	}
}

func TestDetectFormat(t *testing.T) {
	for path, want := range map[string]string{
		"testdata/mysql8-slow.log":               FormatSlow,
		"testdata/mysql8-general.log":            FormatGeneral,
		"testdata/mysql8-digest.tsv":             FormatDigest,
		"testdata/mariadb-passwords-slow.log":    FormatSlow,
		"testdata/mariadb-passwords-general.log": FormatGeneral,
		"testdata/shop/schema.sql":               "",
	} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := DetectFormat(b); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	s := NewSet(nil)
	err := s.ReadFile("testdata/shop/schema.sql", FormatAuto)
	if err == nil || !strings.Contains(err.Error(), "testdata/shop/schema.sql:1: neither a slow log") {
		t.Errorf("a file of another kind: err = %v", err)
	}
}

func TestDigestSQLRunnable(t *testing.T) {
	in := "SELECT COUNT ( `m` . `id` ) , SUM ( `x` ) FROM `t` AS `m` JOIN ( SELECT ? ) AS `d` ON `m` . `a` IN (...) AND EXISTS ( SELECT ? ) LIMIT ?"
	want := "SELECT COUNT( `m` . `id` ) , SUM( `x` ) FROM `t` AS `m` JOIN ( SELECT ? ) AS `d` ON `m` . `a` IN (?) AND EXISTS ( SELECT ? ) LIMIT ?"
	if got := digestSQL(in); got != want {
		t.Errorf("digestSQL:\n got %s\nwant %s", got, want)
	}
}

func TestFilterDatabase(t *testing.T) {
	s := NewSet(&Filter{Database: "crm"})
	if err := s.ReadFile("testdata/mysql8-digest.tsv", FormatAuto); err != nil {
		t.Fatal(err)
	}
	if s.Skipped[SkipDatabase] != 1200+300+1500 || len(s.Ranked(false)) != 0 {
		t.Errorf("digest rows of database shop kept for crm: skipped %v", s.Skipped)
	}
}

// TestReadSlowLogPercona reads Percona Server's extended slow log
// (log_slow_verbosity=full; a fixture written from its documented
// format): the Schema line names the database, the InnoDB lines are
// header, and both statements make one group.
func TestReadSlowLogPercona(t *testing.T) {
	sts := readSlow(t, "testdata/percona-slow.log")
	if len(sts) != 2 {
		t.Fatalf("%d statements, want 2: %+v", len(sts), sts)
	}
	for _, st := range sts {
		if st.Database != "shop" || !st.HasTime || st.RowsExamined < 2000 || strings.Contains(st.SQL, "InnoDB") || !strings.HasPrefix(st.SQL, "SELECT c.country") {
			t.Errorf("%+v", st)
		}
	}
	s := NewSet(nil)
	if err := s.ReadFile("testdata/percona-slow.log", FormatAuto); err != nil {
		t.Fatal(err)
	}
	if g := s.Ranked(false); len(g) != 1 || g[0].Count != 2 || strings.Join(g[0].Values[0], ",") != "pro,free" {
		t.Errorf("groups %+v", g)
	}
}

func TestReadSlowFieldsEmptyValue(t *testing.T) {
	var st Statement
	readSlowFields("# Thread_id: 10  Schema:   QC_hit: No", &st)
	if st.Database != "" {
		t.Errorf("an empty Schema read as %q", st.Database)
	}
	readSlowFields("# Query_time: 0.5  Lock_time: 0  Rows_sent: 3  Rows_examined: 9", &st)
	if st.Time != 500*time.Millisecond || st.RowsSent != 3 || st.RowsExamined != 9 {
		t.Errorf("%+v", st)
	}
}
