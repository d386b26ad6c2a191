package ingest

import (
	"reflect"
	"strings"
	"testing"
)

func TestFingerprint(t *testing.T) {
	for _, c := range []struct {
		sql, fp string
		slots   [][]string
	}{
		{"SELECT  * FROM `Orders` o WHERE o.id = 42 AND o.status='paid' -- note\n LIMIT 10;",
			"select * from orders o where o.id = ? and o.status = ? limit ?", [][]string{{"42"}, {"paid"}, {"10"}}},
		{"select a from t where id IN (1, 2,3) and b in ( 'x' )",
			"select a from t where id in(?+) and b in(?+)", [][]string{{"1", "2", "3"}, {"x"}}},
		{"SELECT a FROM t WHERE x = -5 AND y = z - 1 /* c */",
			"select a from t where x = ? and y = z - ?", [][]string{{"-5"}, {"1"}}},
		{"SELECT /*+ JOIN_ORDER(l1, m) */ COUNT(*) FROM m JOIN l1 ON m.id = l1.pid WHERE m.c = 'it''s'",
			"select /*+ join_order(l1, m) */ count(*) from m join l1 on m.id = l1.pid where m.c = ?", [][]string{{"it's"}}},
		{"INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y'), (3, 'z')",
			"insert into t(a, b) values(?, ?)", [][]string{{"1"}, {"x"}}},
		{"select a from t where id in (select b from u where c = 1)",
			"select a from t where id in(select b from u where c = ?)", [][]string{{"1"}}},
	} {
		sh := Fingerprint(c.sql)
		if sh.Fingerprint != c.fp {
			t.Errorf("Fingerprint(%q) = %q, want %q", c.sql, sh.Fingerprint, c.fp)
		}
		var got [][]string
		for _, s := range sh.Slots {
			var vals []string
			for _, v := range s.Values {
				vals = append(vals, v.Text)
			}
			got = append(got, vals)
		}
		if !reflect.DeepEqual(got, c.slots) {
			t.Errorf("Fingerprint(%q) slots = %q, want %q", c.sql, got, c.slots)
		}
	}
}

func TestFingerprintGroupsWhatDiffersOnlyInValuesAndLayout(t *testing.T) {
	a := Fingerprint("SELECT x FROM t WHERE id IN (1,2,3) AND s = 'a'")
	b := Fingerprint("select  x\nfrom `t` where id in (7) and s = \"bb\" # trailing")
	if a.Fingerprint != b.Fingerprint {
		t.Errorf("%q and %q differ", a.Fingerprint, b.Fingerprint)
	}
	c := Fingerprint("SELECT /*+ NO_BNL() */ x FROM t WHERE id IN (1,2,3) AND s = 'a'")
	if c.Fingerprint == a.Fingerprint {
		t.Errorf("a hint should make another fingerprint: %q", c.Fingerprint)
	}
}

func TestTableRefs(t *testing.T) {
	for sql, want := range map[string]string{
		"INSERT INTO main1 (id, l1_id) VALUES (1, 2) ON DUPLICATE KEY UPDATE l1_id = VALUES(l1_id)": "main1",
		"SELECT STRAIGHT_JOIN m.a FROM level1 STRAIGHT_JOIN main1 AS m ON m.id = level1.pid":        "level1 main1:m",
		"SELECT a FROM (SELECT x FROM t1 WHERE c = 1) d JOIN s.t2 USING (x)":                        ":d t1 s.t2",
		"UPDATE t1 JOIN t2 ON t1.a = t2.a SET t1.b = 1":                                             "t1 t2",
	} {
		var got []string
		for _, r := range tableRefs(Fingerprint(sql).toks) {
			n := r.table
			if r.schema != "" {
				n = r.schema + "." + n
			}
			if r.alias != "" {
				n += ":" + r.alias
			}
			got = append(got, n)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("tableRefs(%q) = %q, want %q", sql, got, want)
		}
	}
}
