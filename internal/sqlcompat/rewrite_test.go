package sqlcompat

import (
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// TestRewrite: each construct, found in a statement the TiDB parser
// rejects, is rewritten into text it reads, keeping the length where the
// rewrite blanks or replaces a word.
func TestRewrite(t *testing.T) {
	tests := []struct {
		c        *Construct
		sql, out string
	}{
		{LimitRowsExamined, "SELECT a FROM t1 LIMIT 10 ROWS EXAMINED 1000",
			"SELECT a FROM t1 LIMIT 10                   "},
		{LimitRowsExamined, "SELECT a FROM t1 LIMIT ROWS EXAMINED ?",
			"SELECT a FROM t1                      "},
		{OffsetFetch, "SELECT a FROM t1 ORDER BY a OFFSET 1 ROWS FETCH FIRST 2 ROWS ONLY",
			"SELECT a FROM t1 ORDER BY a                                       "},
		{MatchColumns, "SELECT a FROM t1 WHERE MATCH a, t1.b AGAINST ('x' IN BOOLEAN MODE)",
			"SELECT a FROM t1 WHERE MATCH (a, t1.b) AGAINST ('x' IN BOOLEAN MODE)"},
		{MatchCompared, "SELECT a FROM t1 WHERE MATCH(c) AGAINST('w') > 0",
			"SELECT a FROM t1 WHERE (MATCH(c) AGAINST('w')) > 0"},
		{MatchCompared, "SELECT a FROM t1 WHERE 0 < MATCH(c) AGAINST('w')",
			"SELECT a FROM t1 WHERE 0 < (MATCH(c) AGAINST('w'))"},
		{ValuesWithoutRow, "SELECT * FROM (VALUES (1, 2), (3, 4)) AS v",
			"SELECT * FROM (VALUES ROW(1, 2), ROW(3, 4)) AS v"},
		{ValuesWithoutRow, "VALUES (1), (2)", "VALUES ROW(1), ROW(2)"},
		{WithinGroup, "SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY b) OVER (PARTITION BY a) AS p FROM t1",
			"SELECT PERCENTILE_CONT(0.5)                                                      AS p FROM t1"},
		{MedianOver, "SELECT MEDIAN(b) OVER (PARTITION BY a) FROM t1",
			"SELECT MEDIAN(b)                        FROM t1"},
		{IntoVariables, "SELECT a, b INTO @x, @y FROM t1",
			"SELECT a, b             FROM t1"},
		{IntoVariables, "SELECT a FROM t1 UNION SELECT a FROM t2 INTO @x",
			"SELECT a FROM t1 UNION SELECT a FROM t2         "},
		{IntoFile, "SELECT a INTO OUTFILE '/x' FIELDS TERMINATED BY ',' FROM t1",
			"SELECT a                                           FROM t1"},
		{IntoFile, "SELECT a FROM t1 INTO DUMPFILE '/x'",
			"SELECT a FROM t1                   "},
		{LikeExpression, "SELECT 1 LIKE 1|2, a LIKE concat(b, '%') + 1 FROM t1",
			"SELECT 1 LIKE (1|2), a LIKE (concat(b, '%') + 1) FROM t1"},
		{Returning, "DELETE FROM t1 WHERE a = 2 RETURNING a, b * 2 AS c",
			"DELETE FROM t1 WHERE a = 2                        "},
		{ReservedName, "SELECT rank, RANK() OVER (ORDER BY a) AS rank FROM t1 WHERE window > 0 GROUP BY row",
			"SELECT `rank`, RANK() OVER (ORDER BY a) AS `rank` FROM t1 WHERE `window` > 0 GROUP BY `row`"},
		{WindowOffset, "SELECT LEAD(a, a - 1) OVER (ORDER BY a), NTILE(?) OVER (ORDER BY a) FROM t1",
			"SELECT LEAD(a, 1    ) OVER (ORDER BY a), NTILE(?) OVER (ORDER BY a) FROM t1"},
		{MultiUpdateLimit, "UPDATE t1, t2 SET t1.b = t2.b WHERE t1.a = t2.a ORDER BY t1.a LIMIT 10",
			"UPDATE t1 JOIN  t2 SET t1.b = t2.b WHERE t1.a = t2.a ORDER BY t1.a LIMIT 10"},
		{HavingWithoutTable, "SELECT 6 AS r FROM dual HAVING r <> 6",
			"SELECT 6 AS r           HAVING r <> 6"},
		{HavingWithoutTable, "SELECT 1 AS x FROM dual WHERE 1 GROUP BY x HAVING x > 0",
			"SELECT 1 AS x FROM `dual` WHERE 1 GROUP BY x HAVING x > 0"},
		{HavingWithoutTable, "SELECT 1 AS x GROUP BY x HAVING x > 0",
			"SELECT 1 AS x FROM `dual` GROUP BY x HAVING x > 0"},
		{CycleRestrict, "WITH RECURSIVE r AS (SELECT a FROM t1 UNION ALL SELECT a FROM r) CYCLE a RESTRICT SELECT * FROM r",
			"WITH RECURSIVE r AS (SELECT a FROM t1 UNION ALL SELECT a FROM r)                  SELECT * FROM r"},
		{ValueFunction, "SELECT 1 FROM t1 GROUP BY VALUE(b)", "SELECT 1 FROM t1 GROUP BY VALUES(b)"},
		{EscapeExpression, "SELECT a FROM t1 WHERE c LIKE 'a\\%b' ESCAPE 0x5c",
			"SELECT a FROM t1 WHERE c LIKE 'a\\%b' ESCAPE '|' "},
		{NaturalInner, "SELECT a FROM t1 NATURAL INNER JOIN t2", "SELECT a FROM t1 NATURAL       JOIN t2"},
		{NaturalStraight, "SELECT a FROM t1 NATURAL STRAIGHT_JOIN t2", "SELECT a FROM t1 NATURAL JOIN          t2"},
		{CastType, "SELECT CAST(a AS VARCHAR(10)), CAST(b AS INT) FROM t1", "SELECT CAST(a AS CHAR   (10)), CAST(b AS SIGNED) FROM t1"},
		{ExcludeNoOthers, "SELECT SUM(b) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE NO OTHERS) FROM t1",
			"SELECT SUM(b) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW                  ) FROM t1"},
		{AliasEquals, "SELECT x.a FROM t1 = x, t2 = y WHERE x.a = y.a", "SELECT x.a FROM t1   x, t2   y WHERE x.a = y.a"},
		{DynamicColumns, "SELECT COLUMN_GET(d, 'n' AS CHAR(10)) FROM t1", "SELECT COLUMN_GET(d, 'n'             ) FROM t1"},
		{LastValueList, "SELECT LAST_VALUE(@a:=1, @a) FROM t1", "SELECT   COALESCE(@a:=1, @a) FROM t1"},
		{PortionOf, "DELETE FROM t1 FOR PORTION OF p FROM '2000-01-01' TO '2018-01-01' WHERE a = 1",
			"DELETE FROM t1                                                  WHERE a = 1"},
		{CharsetIntroducer, "SELECT _cp866'abc' LIKE 'a%'", "SELECT       'abc' LIKE 'a%'"},
	}
	p := parser.New()
	for _, tc := range tests {
		if _, _, err := p.Parse(tc.sql, "", ""); err == nil {
			t.Errorf("the parser reads %q: nothing to test", tc.sql)
		}
		r := Rewrite(tc.sql, MariaDB)
		if r == nil {
			t.Errorf("%s: not rewritten: %s", tc.c.Name, tc.sql)
			continue
		}
		if fields(r.Text) != fields(tc.out) {
			t.Errorf("%s:\n got %q\nwant %q", tc.c.Name, r.Text, tc.out)
		}
		if sameLength[tc.c] && len(r.Text) != len(tc.sql) {
			t.Errorf("%s: %q is %d bytes long, not %d", tc.c.Name, r.Text, len(r.Text), len(tc.sql))
		}
		if !r.Has(tc.c) {
			t.Errorf("%s: matches %v", tc.c.Name, r.Matches)
		}
		if _, _, err := p.Parse(r.Text, "", ""); err != nil {
			t.Errorf("%s: %q does not parse: %v", tc.c.Name, r.Text, err)
		}
		mysql := Rewrite(tc.sql, MySQL)
		if got := mysql != nil && mysql.Has(tc.c); got == tc.c.MariaDB {
			t.Errorf("%s (MariaDB only: %v): rewritten for MySQL: %v", tc.c.Name, tc.c.MariaDB, got)
		}
	}
}

// sameLength are the constructs rewritten without moving what follows
// them: blanked, or replaced by text padded to their length.
var sameLength = map[*Construct]bool{LimitRowsExamined: true, OffsetFetch: true, WithinGroup: true,
	MedianOver: true, IntoVariables: true, IntoFile: true, Returning: true, WindowOffset: true,
	CycleRestrict: true, EscapeExpression: true, NaturalInner: true, NaturalStraight: true,
	ExcludeNoOthers: true, AliasEquals: true, DynamicColumns: true, LastValueList: true, PortionOf: true,
	CharsetIntroducer: true}

func fields(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestRewriteLeavesMistakes: real mistakes, and the constructs MariaDB
// rejects too, are not rewritten into text the parser reads.
func TestRewriteLeavesMistakes(t *testing.T) {
	p := parser.New()
	for _, sql := range []string{
		"SELECT t1.a FROM t1 JION t2 ON t1.a = t2.a",
		"SELECT a FORM t1 WHERE a = 1",
		"SELECT t1.a FROM t1 x t2 y WHERE x.a = y.a",
		"SELECT a FROM t1 WHERE a IN (1 2, 3)",
		"UPDATE t1 SET a = 1 b = 2 WHERE a = 3",
		"DELETE t1 FROM t1, t2 WHERE t1.a = t2.a LIMIT 10",
		"DELETE t1 FROM t1 JOIN t2 ON t1.a = t2.a ORDER BY t1.a LIMIT 10",
		"SELECT row_number FROM door",
		"SELECT t1.a FROM t1 NATURAL LEFT INNER JOIN t2",
		"SELECT a FROM t1 ORDER a",
		"SELECT a FROM t1 WHERE (a = 1",
		"SELECT SUM(b) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM t1",
	} {
		if _, _, err := p.Parse(sql, "", ""); err == nil {
			t.Errorf("the parser reads %q", sql)
		}
		if r := Rewrite(sql, MariaDB); r != nil {
			if _, _, err := p.Parse(r.Text, "", ""); err == nil {
				t.Errorf("%q rewritten to %q, which parses", sql, r.Text)
			}
		}
	}
}

// TestOrigin: offsets of the rewritten text map back to the text given;
// an inserted bracket maps to the token it precedes.
func TestOrigin(t *testing.T) {
	sql := "SELECT rank FROM t1 WHERE MATCH a AGAINST ('x') > 0 LIMIT 1 ROWS EXAMINED 9"
	r := Rewrite(sql, MariaDB)
	if r == nil {
		t.Fatal("not rewritten")
	}
	for _, word := range []string{"rank", "FROM", "t1", "MATCH", "AGAINST", "> 0", "LIMIT"} {
		got := r.Origin(strings.Index(r.Text, word))
		if want := strings.Index(sql, word); got != want {
			t.Errorf("%q: origin %d, want %d", word, got, want)
		}
	}
	// the backquote before rank, the bracket before MATCH and a
	for _, tc := range []struct {
		inserted string
		at       string
	}{{"`rank`", "rank"}, {"(MATCH", "MATCH"}, {"(a)", "a AGAINST"}, {"a) AGAINST", "a AGAINST"}} {
		if got, want := r.Origin(strings.Index(r.Text, tc.inserted)), strings.Index(sql, tc.at); got != want {
			t.Errorf("inserted %q: origin %d, want %d", tc.inserted, got, want)
		}
	}
	if got := r.Origin(len(r.Text)); got != len(sql) {
		t.Errorf("end: %d, want %d", got, len(sql))
	}
}

// TestUnreadable names the constructs no rewrite reads at the offset a
// parser stopped at.
func TestUnreadable(t *testing.T) {
	sql := "SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS(a INT PATH '$')) AS jt"
	if m := Unreadable(sql, strings.Index(sql, "('[1]'"), MySQL); m == nil || m.Construct != JSONTable || sql[m.Start:m.End] != "JSON_TABLE(" {
		t.Errorf("JSON_TABLE: %v", m)
	}
	sql = "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2020-01-01'"
	off := strings.Index(sql, "SYSTEM_TIME")
	if m := Unreadable(sql, off, MariaDB); m == nil || m.Construct != SystemTime || sql[m.Start:m.End] != "FOR SYSTEM_TIME" {
		t.Errorf("FOR SYSTEM_TIME: %v", m)
	}
	if c := Unreadable(sql, off, MySQL); c != nil {
		t.Errorf("FOR SYSTEM_TIME for MySQL: %v", c)
	}
	if c := Unreadable("SELECT a FROM t1 JION t2", 20, MariaDB); c != nil {
		t.Errorf("a typo: %v", c)
	}
}
